import { doctorFacts } from '../doctor-facts.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `doctor`: Pi's configuration as this daemon sees it now, a space's next model, the sandbox. */
export function doctorHandlers({
  agentDir,
  models,
  startedAt,
}: Pick<HandlerParts, 'agentDir' | 'models' | 'startedAt'>): NamespaceHandlers<'doctor'> {
  return {
    doctor: async (params) => {
      const space = params.space;
      return doctorFacts({
        agentDir,
        models: await models.models(),
        ...(space === undefined ? {} : { next: async () => (await models.next(space)).decision }),
        daemonModel: models.daemonModel,
        startedAt,
      });
    },
  };
}
