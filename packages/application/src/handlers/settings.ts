import type { SettingsScope } from '@repa/settings';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `settings.*`: the settings store at the scope the params name (a space by its real root). */
export function settingsHandlers({
  space,
  settings,
}: Pick<HandlerParts, 'space' | 'settings'>): NamespaceHandlers<'settings'> {
  const scope = async (params: SettingsScope): Promise<SettingsScope> => ({
    space: params.space === undefined ? undefined : await space(params.space),
    sessionId: params.sessionId,
  });
  return {
    'settings.get': async (params) => ({ items: await settings.get(await scope(params)) }),
    'settings.set': async (params) => ({
      item: await settings.set({ ...params, ...(await scope(params)) }),
    }),
    'settings.reset': async (params) => ({
      item: await settings.reset({ ...params, ...(await scope(params)) }),
    }),
  };
}
