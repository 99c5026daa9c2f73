import {
  type FauxResponseFactory,
  type fauxProvider,
  InMemoryCredentialStore,
} from '@earendil-works/pi-ai';
import { ModelRuntime } from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import type { ModelChoice } from './model-choice.js';

type FauxRegistration = ReturnType<typeof fauxProvider>;

/** Arms a faux provider so that every request, however many, is answered by `respond`. */
export function answerEveryRequest(faux: FauxRegistration, respond: FauxResponseFactory): void {
  const step: FauxResponseFactory = (...args) => {
    faux.appendResponses([step]);
    return respond(...args);
  };
  faux.setResponses([step]);
}

/** A model choice on a faux provider: its own in-memory Pi runtime, no credentials, no network. */
export async function fauxModelChoice(faux: FauxRegistration, label: string): Promise<ModelChoice> {
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  const [definition] = faux.models;
  const model = modelRuntime.getModel(definition.provider, definition.id);
  if (!model) throw new RepaError('internal', `The faux model ${label} did not register.`);
  return { modelRuntime, model, label, offline: true };
}
