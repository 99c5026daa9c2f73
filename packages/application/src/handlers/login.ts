import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/**
 * `login.*`: Pi's own login and logout through the daemon (its prompts answered by
 * `login.answer`), each telling the model the next run uses now.
 */
export function loginHandlers({
  logins,
  models,
}: Pick<HandlerParts, 'logins' | 'models'>): NamespaceHandlers<'login'> {
  const next = async (space: string | undefined) => (await models.next(space)).decision;
  return {
    'login.start': async (params, connection) => {
      const result = await logins.start(params, connection);
      return { ...result, next: await next(params.space) };
    },
    'login.answer': async (params) => ({ accepted: logins.answer(params) }),
    'login.cancel': async (params) => ({ cancelled: logins.cancel(params.loginId) }),
    'login.logout': async (params) => {
      const result = await logins.logout(params.provider);
      return { ...result, next: await next(params.space) };
    },
  };
}
