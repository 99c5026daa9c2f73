import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** How near the end (in px) the learner must be for the conversation to follow new text. */
const NEAR_END = 80;

/**
 * Keeps a scrolling conversation (the element `ref` names, its `onScroll` wired) at its end: always when `opened` changes (another session's
 * history), and when `grown` changes (a reply streams) while the learner is reading the end.
 */
export function useStickToBottom<T extends HTMLElement>(
  opened: unknown,
  grown: unknown,
): { ref: RefObject<T>; onScroll: () => void } {
  const ref = useRef<T>(null);
  const atEnd = useRef(true);
  const onScroll = () => {
    const element = ref.current;
    if (element) {
      atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_END;
    }
  };
  useLayoutEffect(() => {
    atEnd.current = true;
  }, [opened]);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && atEnd.current) element.scrollTop = element.scrollHeight;
  }, [opened, grown]);
  return { ref, onScroll };
}
