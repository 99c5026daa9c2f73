import type { RepaHandledMethod, RepaHandler } from '../server/repa-handlers.js';
import { contextHandlers } from './context.js';
import { doctorHandlers } from './doctor.js';
import { filesHandlers } from './files.js';
import type { HandlerParts } from './handler-parts.js';
import { loginHandlers } from './login.js';
import { materialsHandlers } from './materials.js';
import { reachParams } from './method-folders.js';
import { modelsHandlers } from './models.js';
import { packagesHandlers } from './packages.js';
import { runHandlers } from './run.js';
import { sessionHandlers } from './session.js';
import { settingsHandlers } from './settings.js';
import { spaceHandlers } from './space.js';
import { studyHandlers } from './study.js';
import { studyCheckHandlers } from './study-check.js';
import { studyDraftHandlers } from './study-drafts.js';
import { studyQuizHandlers } from './study-quiz.js';

export { reachParams } from './method-folders.js';

/** A handler for every v1 method the application answers (the protocol's method table). */
export type ApplicationHandlers = { [M in RepaHandledMethod]: RepaHandler<M> };

/**
 * The application's v1 handlers, one namespace per module: a method of the protocol without its
 * handler, or a handler of no such method, does not compile. Each is called with its params
 * reached through the folder gate first (`reachParams`: the folder they name resolved, opened or
 * not, and the session id they name checked), so no handler decides that on its own.
 */
export function applicationHandlers(parts: HandlerParts): ApplicationHandlers {
  const handlers: ApplicationHandlers = {
    ...spaceHandlers(parts),
    ...sessionHandlers(parts),
    ...runHandlers(parts),
    ...settingsHandlers(parts),
    ...contextHandlers(parts),
    ...modelsHandlers(parts),
    ...loginHandlers(parts),
    ...doctorHandlers(parts),
    ...materialsHandlers(parts),
    ...packagesHandlers(parts),
    ...filesHandlers(parts),
    ...studyHandlers(parts),
    ...studyDraftHandlers(parts),
    ...studyQuizHandlers(parts),
    ...studyCheckHandlers(parts),
  };
  const gated = (method: RepaHandledMethod, handler: RepaHandler<RepaHandledMethod>) => [
    method,
    async (params: never, connection: never) =>
      handler(await reachParams(parts.gate, method, params), connection),
  ];
  return Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) =>
      gated(method as RepaHandledMethod, handler as RepaHandler<RepaHandledMethod>),
    ),
  ) as ApplicationHandlers;
}
