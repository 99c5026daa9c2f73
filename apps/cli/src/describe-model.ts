import {
  MODEL_SOURCE_WORDS,
  type ModelSource,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
  type ThinkingLevel,
} from '@repa/protocol';

/** How a model is named in every output; the offline responder says what it is. */
export function describeModel(label: string | undefined): string {
  if (label === undefined) return 'unknown (the daemon was not started by repa; see its output)';
  return label === OFFLINE_MODEL_ID ? OFFLINE_MODEL_LABEL : label;
}

/** Why a run uses its model, in a few words. */
export function describeModelSource(source: ModelSource | undefined): string {
  return source === undefined
    ? 'recorded before Repa kept why'
    : (MODEL_SOURCE_WORDS[source] ?? source);
}

/**
 * The thinking level a run uses, and the one asked for when the model could not do it and it was
 * lowered: `off (high was asked for; this model cannot do it, so it was lowered)`.
 */
export function describeThinking(run: {
  thinkingLevel?: ThinkingLevel | undefined;
  modelSettings?: { thinkingLevel?: ThinkingLevel | null } | undefined;
}): string | undefined {
  const asked = run.modelSettings?.thinkingLevel ?? undefined;
  const used = run.thinkingLevel ?? asked;
  if (used === undefined) return undefined;
  return asked !== undefined && asked !== used
    ? `${used} (${asked} was asked for; this model cannot do it, so it was lowered)`
    : used;
}

/**
 * The model a run uses, why, and its thinking level, as the `[repa] model:` line, chat's
 * `/model` and `runs show` name it: `anthropic/x — Pi's default …, thinking off`.
 */
export function describeRunModel(run: {
  model?: string | undefined;
  modelSource?: ModelSource | undefined;
  source?: ModelSource | undefined;
  thinkingLevel?: ThinkingLevel | undefined;
  modelSettings?: { thinkingLevel?: ThinkingLevel | null } | undefined;
}): string {
  const why = describeModelSource(run.modelSource ?? run.source);
  const thinking = run.thinkingLevel ? describeThinking(run) : undefined;
  return `${describeModel(run.model)} — ${why}${thinking ? `, thinking ${thinking}` : ''}`;
}

/**
 * The status line chat shows after each reply: the model and thinking level it used, and Pi's
 * estimate of the session's context (labelled as an estimate, spec R47).
 */
export function statusLine(run: {
  model?: string | undefined;
  thinkingLevel?: ThinkingLevel | undefined;
  usage?: { contextTokensEstimate?: number; contextWindow?: number } | undefined;
}): string {
  const model = `model ${run.model ?? 'unknown'}${run.thinkingLevel ? `, thinking ${run.thinkingLevel}` : ''}`;
  const { usage } = run;
  const context =
    usage?.contextTokensEstimate !== undefined
      ? `context about ${usage.contextTokensEstimate}${usage.contextWindow ? ` of ${usage.contextWindow}` : ''} tokens (Pi's estimate)`
      : run.model === OFFLINE_MODEL_ID
        ? 'no context use (the local responder counts no tokens)'
        : 'context use not known yet';
  return `[status] ${model} · ${context}`;
}
