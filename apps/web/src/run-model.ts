import type { RunInfo } from '@repa/protocol';
import { html } from 'htm/preact';

/** Why a run uses its model, in a few words (the reasons `ModelSource` names). */
const WHY: Record<string, string> = {
  run: 'this run only',
  session: "this session's setting",
  space: "this space's setting",
  application: 'the application setting',
  daemon: "the daemon's --model",
  'pi-default': "Pi's default",
  'no-credentials': 'no model has credentials',
};

/** The model a run uses, as its record names it (decided when the run was accepted). */
export interface RunModelView {
  model?: string | undefined;
  modelSource?: string | undefined;
  thinkingLevel?: string | undefined;
}

/** The model part of a run record, for the page's view of it. */
export function runModelOf(run: RunInfo): RunModelView {
  return { model: run.model, modelSource: run.modelSource, thinkingLevel: run.thinkingLevel };
}

/** The line under a reply naming the model and thinking level its run uses, and why. */
export function RunModelLabel({ view }: { view: RunModelView }) {
  if (!view.model) return null;
  const name =
    view.model === 'repa-offline'
      ? 'repa-offline (local responder, no language model)'
      : view.model;
  const why = view.modelSource ? (WHY[view.modelSource] ?? view.modelSource) : undefined;
  return html`<p class="meta run-model" data-model=${view.model}>
    Model: ${name}${why ? ` (${why})` : ''}${view.thinkingLevel ? `, thinking ${view.thinkingLevel}` : ''}
  </p>`;
}
