import { join } from 'node:path';
import type { Model } from '@earendil-works/pi-ai';
import { ModelRuntime } from '@earendil-works/pi-coding-agent';
import { OFFLINE_MODEL_ID, RepaError } from '@repa/protocol';
import { fauxModelChoice } from './faux-model-choice.js';
import type { ModelChoice } from './model-choice.js';
import { createOfflineProvider } from './offline-model.js';

/** Options of {@link chooseModel}. */
export interface ChooseModelOptions {
  /** Pi's configuration directory (`auth.json`, `models.json`). */
  agentDir: string;
  /** `provider/id` to use; `repa-offline` forces the offline responder. Default: first with credentials. */
  model?: string;
}

/** The embedded offline responder as a model choice (spec: a faux provider, clearly named). */
export function offlineModel(): Promise<ModelChoice> {
  return fauxModelChoice(createOfflineProvider(), OFFLINE_MODEL_ID);
}

/**
 * Picks the model from Pi's own configuration and credentials (spec R71): the named one, else the
 * first model with credentials, else the embedded offline responder.
 */
export async function chooseModel(options: ChooseModelOptions): Promise<ModelChoice> {
  if (options.model === OFFLINE_MODEL_ID) return offlineModel();
  const modelRuntime = await ModelRuntime.create({
    authPath: join(options.agentDir, 'auth.json'),
    modelsPath: join(options.agentDir, 'models.json'),
    allowModelNetwork: false,
    refreshOnCreate: false,
  });
  const available = await modelRuntime.getAvailable();
  if (options.model) {
    const [provider, ...rest] = options.model.split('/');
    const model = provider ? modelRuntime.getModel(provider, rest.join('/')) : undefined;
    if (!model) {
      throw new RepaError('not_found', `Pi knows no model ${options.model}.`, {
        fix: 'Use provider/id as listed by `repa doctor`, or repa-offline.',
      });
    }
    if (
      !available.some(
        (candidate) => candidate.provider === model.provider && candidate.id === model.id,
      )
    ) {
      throw new RepaError(
        'not_found',
        `Model ${options.model} has no credentials in Pi's configuration.`,
        {
          fix: `Add a key for ${model.provider} to ${join(options.agentDir, 'auth.json')} (see \`repa doctor\`).`,
        },
      );
    }
    return { modelRuntime, model: model as Model<string>, label: options.model, offline: false };
  }
  const first = available[0];
  if (!first) return offlineModel();
  return {
    modelRuntime,
    model: first as Model<string>,
    label: `${first.provider}/${first.id}`,
    offline: false,
  };
}
