import { realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { RepaError } from '@repa/protocol';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/**
 * The real path of a folder named for a model question: nothing is admitted or created there (a
 * folder that is not a space yet has only the application's settings).
 */
export async function folderOf(root: string): Promise<string> {
  if (!isAbsolute(root)) {
    throw new RepaError('invalid_request', `The space root must be an absolute path: ${root}`);
  }
  return realpath(root).catch(() => {
    throw new RepaError('not_found', `There is no space folder at ${root}.`);
  });
}

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
          : (await models.next(await folderOf(params.space), params.sessionId)).decision;
      const error = pi.configError()?.toWire();
      return {
        models: listed,
        default: (await pi.defaultModel()).label,
        ...(next ? { next } : {}),
        ...(error ? { error } : {}),
      };
    },
    'models.next': async (params) => ({
      choice: (await models.next(await folderOf(params.space), params.sessionId)).decision,
    }),
  };
}
