import { OFFLINE_MODEL_ID } from '@repa/protocol';
import { fauxModelChoice } from './faux-model-choice.js';
import type { ModelChoice } from './model-choice.js';
import { createOfflineProvider } from './offline-model.js';
import { PiModels } from './pi-models.js';

/** Options of {@link chooseModel}. */
export interface ChooseModelOptions {
  /** Pi's configuration directory (`auth.json`, `models.json`). */
  agentDir: string;
  /** `provider/id` or `repa-offline`; default: Pi's own choice among the models with credentials. */
  model?: string;
  /** Read Pi's credentials without creating, locking or writing `auth.json`. */
  readOnly?: boolean;
}

/** The embedded offline responder alone, on a runtime of its own (tests and examples). */
export function offlineModel(): Promise<ModelChoice> {
  return fauxModelChoice(createOfflineProvider(), OFFLINE_MODEL_ID);
}

/**
 * One model from Pi's configuration with the runtime that reaches it (spec R71), decided as a
 * run's is when nothing else chooses: the named one, else the model Pi itself would choose, else
 * the offline responder. For embedders with one fixed model; the daemon uses {@link PiModels}.
 */
export async function chooseModel(options: ChooseModelOptions): Promise<ModelChoice> {
  const models = await PiModels.open({
    agentDir: options.agentDir,
    ...(options.readOnly ? { readOnly: true } : {}),
  });
  const { decision, model } = await models.decide({ model: options.model ?? null });
  return {
    modelRuntime: models.modelRuntime,
    model,
    label: decision.model,
    offline: decision.offline,
  };
}
