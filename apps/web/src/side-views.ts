import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/** One view beside the conversation: its tab's name and what it shows. */
export interface SideView {
  id: string;
  label: string;
  content: unknown;
}

/**
 * Views beside the conversation as tabs (the study view, Runs, Settings, Models): one shown at a
 * time. A view is mounted when it is first shown (so the page asks the daemon only for what is on
 * screen) and then kept, so a sign-in or a draft survives switching. Arrow keys move between tabs.
 */
export function SideViews({
  views,
  label,
  selected,
  onSelect,
}: {
  views: SideView[];
  label: string;
  /** The view shown (held by the page: a reader request or a phone's view switch picks it). */
  selected: string;
  onSelect: (id: string) => void;
}) {
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set([selected]));
  if (!shown.has(selected)) setShown(new Set([...shown, selected]));
  const select = (id: string, focus: boolean) => {
    onSelect(id);
    if (focus) document.getElementById(`tab-${id}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = views.findIndex((view) => view.id === selected);
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -at, End: views.length - 1 - at }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    select(views[(at + step + views.length) % views.length]?.id ?? selected, true);
  };
  return html`<div class="side-views">
    <div class="tabs" role="tablist" aria-label=${label} onKeyDown=${onKeyDown}>
      ${views.map(
        (view) =>
          html`<button type="button" role="tab" id=${`tab-${view.id}`} class="tab" aria-selected=${
            view.id === selected ? 'true' : 'false'
          } aria-controls=${`view-${view.id}`} tabIndex=${view.id === selected ? 0 : -1} onClick=${() =>
            select(view.id, false)}>${view.label}</button>`,
      )}
    </div>
    ${views.map(
      (
        view,
      ) => html`<div role="tabpanel" id=${`view-${view.id}`} class="side-view" aria-labelledby=${`tab-${view.id}`} hidden=${view.id !== selected}>
        ${shown.has(view.id) ? view.content : null}
      </div>`,
    )}
  </div>`;
}
