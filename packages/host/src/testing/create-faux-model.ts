import {
  type FauxResponseFactory,
  fauxProvider,
  InMemoryCredentialStore,
} from '@earendil-works/pi-ai';
import { ModelRuntime } from '@earendil-works/pi-coding-agent';
import type { ModelChoice } from '../models.js';

/**
 * A {@link ModelChoice} on Pi's faux provider whose every request is answered by `respond`
 * (re-armed after each call), for applications and daemons under test.
 */
export async function createFauxModel(respond: FauxResponseFactory): Promise<ModelChoice> {
  const faux = fauxProvider({
    models: [{ id: 'faux-1', contextWindow: 128_000, maxTokens: 16_384 }],
  });
  const step: FauxResponseFactory = (...args) => {
    faux.appendResponses([step]);
    return respond(...args);
  };
  faux.setResponses([step]);
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  const model = modelRuntime.getModel('faux', 'faux-1');
  if (!model) throw new Error('faux model missing');
  return { modelRuntime, model, label: 'faux/faux-1', offline: true };
}
