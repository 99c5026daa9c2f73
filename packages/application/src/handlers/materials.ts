import { realpath } from 'node:fs/promises';
import { addMaterial, listMaterials, removeMaterial } from '@repa/content';
import { RepaError, type V1Params } from '@repa/protocol';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/**
 * `materials.*`: outside files granted read-only to spaces in the application directory's
 * `repa-content-access.json` (spec R15, R54), listed with their state, added and withdrawn.
 */
export function materialsHandlers({
  appDirectory,
}: Pick<HandlerParts, 'appDirectory'>): NamespaceHandlers<'materials'> {
  return {
    'materials.list': (params) =>
      listMaterials(appDirectory, params.space === undefined ? {} : { space: params.space }),
    'materials.add': async (params) =>
      addMaterial(appDirectory, {
        path: params.path,
        spaces: await grantedSpaces(params),
        ...(params.id === undefined ? {} : { id: params.id }),
        ...(params.title === undefined ? {} : { title: params.title }),
        ...(params.expectedRevision === undefined
          ? {}
          : { expectedRevision: params.expectedRevision }),
      }),
    'materials.remove': (params) =>
      removeMaterial(appDirectory, params.id, params.expectedRevision),
  };
}

/**
 * The spaces a grant names: the real path of `space`, or `null` for every space;
 * `invalid_request` unless exactly one of `space` and `allSpaces` is given.
 */
async function grantedSpaces(params: V1Params<'materials.add'>): Promise<string[] | null> {
  if ((params.space === undefined) === (params.allSpaces !== true)) {
    throw new RepaError('invalid_request', 'Grant a material to one space or to every space.', {
      fix: 'Give either space or allSpaces: true (the CLI: --space DIR or --all-spaces).',
    });
  }
  if (params.space === undefined) return null;
  try {
    return [await realpath(params.space)];
  } catch (error) {
    throw new RepaError('not_found', `The space folder ${params.space} does not exist.`, {
      cause: error,
    });
  }
}
