import type { ModelDecision, RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { DocumentsPanel } from './documents-panel.js';
import type { LiveRuns } from './live-runs.js';
import { type ListedMaterials, MaterialsPanel } from './materials-panel.js';
import { ModelsView } from './models-view.js';
import { ContextPanel } from './panels.js';
import { RunsView } from './runs-view.js';
import { SettingsView } from './settings-view.js';
import { SideViews } from './side-views.js';

/**
 * The views beside the conversation, as tabs: the documents with the learning context and the
 * materials, the runs, the settings and the models of the open space and session.
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
}) {
  const { version } = live;
  return html`<aside class="panels" aria-label="Documents, learning context, materials, runs, settings and models">
              <${SideViews} label="Views beside the conversation" views=${[
                {
                  id: 'study',
                  label: 'Documents',
                  content: html`
                  <${DocumentsPanel} key=${space} client=${client} space=${space} version=${version} picked=${picked} onPick=${onPick} onBuilt=${live.bump} materials=${materials.materials} />
                  <${ContextPanel} client=${client} space=${space} sessionId=${sessionId} version=${version} next=${next} />
                  <${MaterialsPanel} client=${client} space=${space} listed=${materials} onChanged=${live.bump} />`,
                },
                {
                  id: 'runs',
                  label: 'Runs',
                  content: html`<${RunsView} client=${client} space=${space} sessionId=${sessionId} version=${version} onCancel=${live.cancel} onRetry=${live.retry} />`,
                },
                {
                  id: 'settings',
                  label: 'Settings',
                  content: html`<${SettingsView} client=${client} space=${space} sessionId=${sessionId} version=${version} />`,
                },
                {
                  id: 'models',
                  label: 'Models',
                  content: html`<${ModelsView} client=${client} space=${space} sessionId=${sessionId} version=${version} next=${next} onChanged=${live.bump} />`,
                },
              ]} />
            </aside>`;
}
