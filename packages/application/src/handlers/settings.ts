import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `settings.*`: the settings store at the scope the params name (a space by its real root). */
export function settingsHandlers({
  settings,
  models,
}: Pick<HandlerParts, 'settings' | 'models'>): NamespaceHandlers<'settings'> {
  return {
    'settings.get': async (params) => ({ items: await settings.get(params) }),
    'settings.set': async (params) => {
      // A model Pi does not know is refused with the closest ids (spec R72); one without
      // credentials is kept (a run on it is refused `auth_failed` until it has some).
      if (params.key === 'model.id' && typeof params.value === 'string') {
        (await models.models()).resolve(params.value);
      }
      return { item: await settings.set(params) };
    },
    'settings.reset': async (params) => ({ item: await settings.reset(params) }),
  };
}
