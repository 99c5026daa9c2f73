import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `login.*`: Pi's own login through the daemon, its prompts answered by `login.answer`. */
export function loginHandlers({
  logins,
}: Pick<HandlerParts, 'logins'>): NamespaceHandlers<'login'> {
  return {
    'login.start': (params, connection) => logins.start(params, connection),
    'login.answer': async (params) => ({ accepted: logins.answer(params) }),
  };
}
