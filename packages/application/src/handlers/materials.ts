import { loadHost } from '../load-host.js';
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
    'materials.list': async (params) => {
      const { listGrantedMaterials } = await loadHost();
      return listGrantedMaterials(appDirectory, params.space);
    },
    'materials.add': async (params) => {
      const { grantMaterial } = await loadHost();
      return grantMaterial(appDirectory, params);
    },
    'materials.remove': async (params) => {
      const { withdrawMaterial } = await loadHost();
      return withdrawMaterial(appDirectory, params.id, params.expectedRevision);
    },
  };
}
