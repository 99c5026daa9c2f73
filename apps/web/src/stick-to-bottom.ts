import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

/** How near the end (in px) the learner must be for the conversation to follow new text. */
const NEAR_END = 80;

/**
 * Whether the conversation scrolls itself (wide screens); on narrow ones the page scrolls, with the
 * message box pinned to the bottom of the window.
 */
export function scrollsItself(element: HTMLElement): boolean {
  const overflow = getComputedStyle(element).overflowY;
  return overflow === 'auto' || overflow === 'scroll';
}

/**
 * How far (px) the conversation's end is below where it is read: the bottom of its own scroller,
 * or, when the page scrolls, the top of what is pinned after it (the message box) or the window's
 * bottom.
 */
export function distanceToEnd(element: HTMLElement): number {
  if (scrollsItself(element)) {
    return element.scrollHeight - element.scrollTop - element.clientHeight;
  }
  const pinned = element.nextElementSibling;
  const position = pinned ? getComputedStyle(pinned).position : '';
  const bottom =
    pinned && (position === 'fixed' || position === 'sticky')
      ? pinned.getBoundingClientRect().top
      : window.innerHeight;
  return element.getBoundingClientRect().bottom - bottom;
}

/** Scrolls the conversation (or the page) so that its end is `distance` px below where it is read. */
export function scrollToDistance(element: HTMLElement, distance: number): void {
  if (scrollsItself(element)) {
    element.scrollTop = element.scrollHeight - element.clientHeight - distance;
  } else {
    window.scrollBy(0, distanceToEnd(element) - distance);
  }
}

/**
 * Whether the learner reads the conversation's end. When the page scrolls: the end is near the
 * message box (not above it because the learner scrolled on to the panels below), or the page is
 * at its top with a conversation too short to reach the box.
 */
function readingEnd(element: HTMLElement): boolean {
  const distance = distanceToEnd(element);
  if (scrollsItself(element)) return distance < NEAR_END;
  return Math.abs(distance) < NEAR_END || (distance < 0 && window.scrollY === 0);
}

/**
 * Keeps a conversation (the element `ref` names, its `onScroll` wired) at its end: always when
 * `opened` changes (another session's history), and when `grown` changes (a reply streams) or what
 * it holds changes size while the learner is reading the end. On narrow screens the page scrolls
 * instead of the element.
 */
export function useStickToBottom<T extends HTMLElement>(
  opened: unknown,
  grown: unknown,
): { ref: RefObject<T>; onScroll: () => void } {
  const ref = useRef<T>(null);
  const atEnd = useRef(true);
  const onScroll = () => {
    const element = ref.current;
    if (element) atEnd.current = readingEnd(element);
  };
  useEffect(() => {
    const onPageScroll = () => {
      if (ref.current && !scrollsItself(ref.current)) onScroll();
    };
    window.addEventListener('scroll', onPageScroll, { passive: true });
    return () => window.removeEventListener('scroll', onPageScroll);
  }, []);
  // Turns laid out late (off-screen ones get their real height when scrolled near), images and
  // late panels move the end: followed while the learner reads it.
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const follow = new ResizeObserver(() => {
      if (atEnd.current) scrollToDistance(element, 0);
    });
    follow.observe(element);
    for (const child of element.children) follow.observe(child);
    return () => follow.disconnect();
  }, [opened]);
  useLayoutEffect(() => {
    atEnd.current = true;
  }, [opened]);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && atEnd.current) scrollToDistance(element, 0);
  }, [opened, grown]);
  return { ref, onScroll };
}
