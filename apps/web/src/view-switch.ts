import { html } from 'htm/preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useReaderRequests } from './file-links.js';
import { SIDE_VIEWS, type SideViewId } from './side-panels.js';

/** Where the page is narrow enough for one column (styles.css uses the same width). */
const NARROW = '(max-width: 1000px)';
const narrow = () => window.matchMedia(NARROW).matches;

/** Which view beside the conversation is selected, and whether (on a phone) it covers the conversation. */
export interface PageViews {
  /** The view beside the conversation selected (its tab). */
  side: SideViewId;
  /** On a phone: the selected view covers the conversation (else the conversation shows). */
  over: boolean;
  /** Shows a view beside the conversation (on a phone, over it). */
  show(view: SideViewId): void;
  /** On a phone: back to the conversation, where it was. */
  back(): void;
  /** The reader was closed: a reader opened from the conversation gives the conversation back. */
  readerClosed(): void;
}

/**
 * The page's views: beside the conversation on a wide screen; on a phone one at a time, the
 * conversation or a view over it, so the conversation keeps its place (it is covered, never moved).
 * A reader request (a citation, a file's name) shows the documents view, over the conversation on a
 * phone, and closing the reader gives the conversation back. Escape does the same.
 */
export function usePageViews(): PageViews {
  const [side, setSide] = useState<SideViewId>('study');
  const [over, setOver] = useState(false);
  // The reader covers the conversation because a link in it asked: closing the reader uncovers it.
  const readerOver = useRef(false);
  const overNow = useRef(over);
  overNow.current = over;
  useReaderRequests(() => {
    setSide('study');
    if (!narrow()) return;
    if (!overNow.current) readerOver.current = true;
    setOver(true);
  });
  const back = () => {
    readerOver.current = false;
    setOver(false);
  };
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && overNow.current && !event.defaultPrevented) back();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  return {
    side,
    over,
    show(view) {
      setSide(view);
      readerOver.current = false;
      if (narrow()) setOver(true);
    },
    back,
    readerClosed() {
      if (readerOver.current) back();
    },
  };
}

/**
 * On a phone: tabs at the top for the conversation and each view beside it, by their short names
 * so that all fit at 390 px (hidden when wide).
 */
export function ViewSwitch({ views }: { views: PageViews }) {
  const current = views.over ? views.side : 'conversation';
  const bar = useRef<HTMLElement>(null);
  // The view over the conversation starts below the tabs, wherever they are on screen now (below
  // the top bar when the page is at its top, else at the screen's top).
  useLayoutEffect(() => {
    const bottom = bar.current?.getBoundingClientRect().bottom;
    if (views.over && bottom !== undefined) {
      document.documentElement.style.setProperty('--view-top', `${Math.max(0, bottom)}px`);
    }
  }, [views.over, views.side]);
  const tab = (id: string, label: string, onClick: () => void) =>
    html`<button type="button" class="tab" data-view=${id} aria-pressed=${current === id ? 'true' : 'false'} onClick=${onClick}>${label}</button>`;
  return html`<nav class="view-switch" ref=${bar} aria-label="Conversation and the views beside it">
    ${tab('conversation', 'Chat', views.back)}
    ${SIDE_VIEWS.map((view) => tab(view.id, 'short' in view ? view.short : view.label, () => views.show(view.id)))}
  </nav>`;
}
