import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `models.*`: the models Pi knows, with the daemon's model marked default. */
export function modelsHandlers({
  agentDir,
  modelLabel,
}: Pick<HandlerParts, 'agentDir' | 'modelLabel'>): NamespaceHandlers<'models'> {
  return {
    'models.list': async (params) => {
      const { listModels, defaultAgentDir } = await loadHost();
      const models = await listModels({
        agentDir: agentDir ?? defaultAgentDir(),
        all: params.all ?? false,
        defaultModel: modelLabel,
      });
      return { models, default: modelLabel };
    },
  };
}
