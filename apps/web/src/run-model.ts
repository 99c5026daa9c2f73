import {
  MODEL_SOURCE_WORDS,
  type ModelSource,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
  type RunInfo,
} from '@repa/protocol';
import { html } from 'htm/preact';

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

/** The words of the model line: the model, why it was chosen and the thinking level; none without a model. */
export function modelLine(view: RunModelView): string | undefined {
  if (!view.model) return undefined;
  const name = view.model === OFFLINE_MODEL_ID ? OFFLINE_MODEL_LABEL : view.model;
  const why = view.modelSource
    ? (MODEL_SOURCE_WORDS[view.modelSource as ModelSource] ?? view.modelSource)
    : undefined;
  return `Model: ${name}${why ? ` — ${why}` : ''}${view.thinkingLevel ? `, thinking ${view.thinkingLevel}` : ''}`;
}

/** The line under a reply naming the model and thinking level its run uses, and why. */
export function RunModelLabel({ view }: { view: RunModelView }) {
  const line = modelLine(view);
  if (line === undefined) return null;
  return html`<p class="meta run-model" data-model=${view.model}>${line}</p>`;
}
