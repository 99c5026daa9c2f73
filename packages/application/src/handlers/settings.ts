import type { SettingsScope } from '@repa/settings';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `settings.*`: the settings store at the scope the params name (a space by its real root). */
export function settingsHandlers({
  space,
  folder,
  settings,
  models,
}: Pick<HandlerParts, 'space' | 'folder' | 'settings' | 'models'>): NamespaceHandlers<'settings'> {
  // A write opens the space (admits it); a read only resolves the folder.
  const scope = async (
    params: SettingsScope,
    open: (root: string) => Promise<string> = space,
  ): Promise<SettingsScope> => ({
    space: params.space === undefined ? undefined : await open(params.space),
    sessionId: params.sessionId,
  });
  return {
    'settings.get': async (params) => ({ items: await settings.get(await scope(params, folder)) }),
    'settings.set': async (params) => {
      // A model Pi does not know is refused with the closest ids (spec R72); one without
      // credentials is kept (a run on it is refused `auth_failed` until it has some).
      if (params.key === 'model.id' && typeof params.value === 'string') {
        (await models.models()).resolve(params.value);
      }
      return { item: await settings.set({ ...params, ...(await scope(params)) }) };
    },
    'settings.reset': async (params) => ({
      item: await settings.reset({ ...params, ...(await scope(params)) }),
    }),
  };
}
