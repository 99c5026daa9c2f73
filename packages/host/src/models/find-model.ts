import type { Model } from '@earendil-works/pi-ai';
import type { ModelRuntime } from '@earendil-works/pi-coding-agent';
import { OFFLINE_MODEL_ID, RepaError } from '@repa/protocol';

/** Levenshtein distance, small strings only (model ids). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Up to three `provider/id` labels Pi knows that are closest to `wanted`. */
export function similarModels(modelRuntime: ModelRuntime, wanted: string): string[] {
  const target = wanted.toLowerCase();
  return modelRuntime
    .getModels()
    .map((model) =>
      model.provider === OFFLINE_MODEL_ID ? OFFLINE_MODEL_ID : `${model.provider}/${model.id}`,
    )
    .map((label) => {
      const lower = label.toLowerCase();
      const id = lower.slice(lower.indexOf('/') + 1);
      const contains = lower.includes(target) || target.includes(id) ? 0 : 1;
      return {
        label,
        score: contains * 1000 + Math.min(distance(lower, target), distance(id, target)),
      };
    })
    .filter((entry) => entry.score < 1000 || entry.score - 1000 <= Math.max(3, target.length / 3))
    .sort((a, b) => a.score - b.score || a.label.localeCompare(b.label))
    .slice(0, 3)
    .map((entry) => entry.label);
}

/**
 * The model Pi knows as `provider/id` (or `repa-offline`, when the runtime holds it), or
 * `not_found` naming the closest ids Pi knows (did-you-mean) in the message and in
 * `details.suggestions`.
 */
export function findModel(
  modelRuntime: ModelRuntime,
  label: string,
  fix = 'Use provider/id as listed by `repa models --all`.',
): Model<string> {
  const slash = label.indexOf('/');
  const model =
    label === OFFLINE_MODEL_ID
      ? modelRuntime.getModel(OFFLINE_MODEL_ID, OFFLINE_MODEL_ID)
      : slash > 0
        ? modelRuntime.getModel(label.slice(0, slash), label.slice(slash + 1))
        : undefined;
  if (model) return model as Model<string>;
  const suggestions = similarModels(modelRuntime, label);
  throw new RepaError(
    'not_found',
    `Pi knows no model ${label}.${suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : ''}`,
    {
      fix,
      details: { model: label, suggestions },
    },
  );
}
