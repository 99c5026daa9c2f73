import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/**
 * `materials.*`: outside files granted read-only to spaces in the application directory's
 * `repa-content-access.json` (spec R15, R54), listed with their state, added and withdrawn.
 */
export function materialsHandlers({
  appDirectory,
  space,
  folder,
}: Pick<HandlerParts, 'appDirectory' | 'space' | 'folder'>): NamespaceHandlers<'materials'> {
  return {
    'materials.list': async (params) => {
      const { listGrantedMaterials } = await loadHost();
      const root = params.space === undefined ? undefined : await folder(params.space);
      return listGrantedMaterials(appDirectory, root);
    },
    'materials.add': async (params) => {
      const { grantMaterial } = await loadHost();
      const root = params.space === undefined ? undefined : await space(params.space);
      return grantMaterial(appDirectory, { ...params, space: root });
    },
    'materials.remove': async (params) => {
      const { withdrawMaterial } = await loadHost();
      return withdrawMaterial(appDirectory, params.id, params.expectedRevision);
    },
  };
}
