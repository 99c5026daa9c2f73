import { join } from 'node:path';
import { ModelRuntime } from '@earendil-works/pi-coding-agent';
import type { ModelInfo } from '@repa/protocol';
import { credentialSourceOf } from './credential-source.js';

/** Options of {@link listModels}. */
export interface ListModelsOptions {
  /** Pi's configuration directory (`auth.json`, `models.json`). */
  agentDir: string;
  /** Also the models without credentials. Default false. */
  all?: boolean;
  /** `provider/id` of the model runs use by default (marked `default`). */
  defaultModel?: string;
}

/**
 * Every model Pi knows from its configuration (R71), with whether its provider has credentials
 * and where they come from — never the secret. Credentialed models come first.
 */
export async function listModels(options: ListModelsOptions): Promise<ModelInfo[]> {
  const modelRuntime = await ModelRuntime.create({
    authPath: join(options.agentDir, 'auth.json'),
    modelsPath: join(options.agentDir, 'models.json'),
    allowModelNetwork: false,
    refreshOnCreate: false,
  });
  const available = new Set(
    (await modelRuntime.getAvailable()).map((model) => `${model.provider}/${model.id}`),
  );
  const models = modelRuntime
    .getModels()
    .map((model): ModelInfo => {
      const id = `${model.provider}/${model.id}`;
      const credentials = available.has(id);
      return {
        id,
        provider: model.provider,
        name: model.name,
        contextWindow: model.contextWindow,
        reasoning: model.reasoning,
        credentials,
        ...(credentials ? credentialSourceOf(modelRuntime, model.provider) : {}),
        default: id === options.defaultModel,
      };
    })
    .filter((model) => options.all || model.credentials);
  return models.sort(
    (a, b) => Number(b.credentials) - Number(a.credentials) || a.id.localeCompare(b.id),
  );
}
