import { type FauxResponseFactory, fauxProvider } from '@earendil-works/pi-ai';
import type { ModelChoice } from '../models/index.js';
import { answerEveryRequest, fauxModelChoice } from '../models/index.js';

/**
 * A {@link ModelChoice} on Pi's faux provider whose every request is answered by `respond`
 * (re-armed after each call), for applications and daemons under test.
 */
export function createFauxModel(respond: FauxResponseFactory): Promise<ModelChoice> {
  const faux = fauxProvider({
    models: [{ id: 'faux-1', contextWindow: 128_000, maxTokens: 16_384 }],
  });
  answerEveryRequest(faux, respond);
  return fauxModelChoice(faux, 'faux/faux-1');
}
