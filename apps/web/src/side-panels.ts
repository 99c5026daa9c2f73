import type { ModelDecision, RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { DocumentsPanel } from './documents-panel.js';
import { lazyView } from './lazy-view.js';
import type { LiveRuns } from './live-runs.js';
import { type ListedMaterials, MaterialsPanel } from './materials-panel.js';
import { ContextPanel } from './panels.js';
import { SideViews } from './side-views.js';

// The views behind the other tabs load with their first opening, not with the page.
const StudyView = lazyView(() => import('./study-view.js').then((view) => view.StudyView));
const QuizView = lazyView(() => import('./quiz-view.js').then((view) => view.QuizView));
const ProgressView = lazyView(() => import('./progress-view.js').then((view) => view.ProgressView));
const RunsView = lazyView(() => import('./runs-view.js').then((view) => view.RunsView));
const SettingsView = lazyView(() => import('./settings-view.js').then((view) => view.SettingsView));
const ModelsView = lazyView(() => import('./models-view.js').then((view) => view.ModelsView));

/** The views beside the conversation, in their tabs' order (a phone's view switch lists them too). */
export const SIDE_VIEWS = [
  { id: 'study', label: 'Documents', short: 'Docs' },
  { id: 'review', label: 'Study' },
  { id: 'progress', label: 'Progress' },
  { id: 'runs', label: 'Runs' },
  { id: 'settings', label: 'Settings' },
  { id: 'models', label: 'Models' },
] as const;

/** The id of a view beside the conversation. */
export type SideViewId = (typeof SIDE_VIEWS)[number]['id'];

/**
 * The views beside the conversation, as tabs: the documents with the learning context and the
 * materials, the study cards to review, the progress per source, the runs, the settings and the models of the open space
 * and session.
 */
export function SidePanels({
  client,
  space,
  sessionId,
  live,
  next,
  picked,
  onPick,
  materials,
  selected,
  onSelect,
  onReaderClose,
}: {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  live: LiveRuns;
  next: ModelDecision | undefined;
  /** Documents picked in the documents panel: attached to the next request. */
  picked: string[];
  onPick: (picked: string[]) => void;
  materials: ListedMaterials;
  /** The view shown. */
  selected: SideViewId;
  onSelect: (id: SideViewId) => void;
  /** Called when the learner closes the reader. */
  onReaderClose: () => void;
}) {
  const { version } = live;
  const content: Record<SideViewId, unknown> = {
    study: html`
      <${DocumentsPanel} key=${space} client=${client} space=${space} version=${version} picked=${picked} onPick=${onPick} onBuilt=${live.bump} materials=${materials.materials} onReaderClose=${onReaderClose} />
      <${ContextPanel} client=${client} space=${space} sessionId=${sessionId} version=${version} next=${next} />
      <${MaterialsPanel} client=${client} space=${space} listed=${materials} onChanged=${live.bump} />`,
    review: html`<${StudyView} key=${space} client=${client} space=${space} />
      <${QuizView} key=${`quiz-${space}`} client=${client} space=${space} />`,
    progress: html`<${ProgressView} key=${space} client=${client} space=${space} />`,
    runs: html`<${RunsView} client=${client} space=${space} sessionId=${sessionId} version=${version} onCancel=${live.cancel} onRetry=${live.retry} />`,
    settings: html`<${SettingsView} client=${client} space=${space} sessionId=${sessionId} version=${version} />`,
    models: html`<${ModelsView} client=${client} space=${space} sessionId=${sessionId} version=${version} next=${next} onChanged=${live.bump} />`,
  };
  return html`<aside class="panels" aria-label="Documents, learning context, materials, study, progress, runs, settings and models">
              <${SideViews} label="Views beside the conversation" selected=${selected} onSelect=${(id: string) => onSelect(id as SideViewId)} views=${SIDE_VIEWS.map(
                (view) => ({ ...view, content: content[view.id] }),
              )} />
            </aside>`;
}
