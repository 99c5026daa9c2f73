import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `models.*`: the models Pi knows, and the model a space's next run uses (spec R71). */
export function modelsHandlers({
  models,
}: Pick<HandlerParts, 'models'>): NamespaceHandlers<'models'> {
  return {
    'models.list': async (params) => {
      const pi = await models.models();
      const listed = await pi.list({ all: params.all ?? false });
      const next =
        params.space === undefined
          ? undefined
          : (await models.next(params.space, params.sessionId)).decision;
      const error = pi.configError()?.toWire();
      return {
        models: listed,
        default: (await pi.defaultModel()).label,
        ...(next ? { next } : {}),
        ...(error ? { error } : {}),
      };
    },
    'models.next': async (params) => ({
      choice: (await models.next(params.space, params.sessionId)).decision,
    }),
  };
}
