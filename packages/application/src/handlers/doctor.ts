import { doctorFacts } from '../doctor-facts.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `doctor`: what `repa doctor` shows about Pi, the daemon's model and the sandbox. */
export function doctorHandlers({
  agentDir,
  model,
}: Pick<HandlerParts, 'agentDir' | 'model'>): NamespaceHandlers<'doctor'> {
  return {
    doctor: async () => doctorFacts({ agentDir, model: await model() }),
  };
}
