import { loginProgressSchema } from './login.js';
import { contextMethods, contextProgressSchema } from './methods/context.js';
import { daemonMethods } from './methods/daemon.js';
import { filesMethods } from './methods/files.js';
import { loginMethods } from './methods/login.js';
import { materialsMethods } from './methods/materials.js';
import { modelsMethods } from './methods/models.js';
import { packagesMethods } from './methods/packages.js';
import { runMethods } from './methods/run.js';
import { sessionMethods, sessionRunNotificationSchema } from './methods/session.js';
import { settingsMethods } from './methods/settings.js';
import { spaceMethods } from './methods/space.js';
import { studyMethods } from './methods/study.js';
import { studyDraftMethods } from './methods/study-drafts.js';
import { studyQuizMethods } from './methods/study-quiz.js';
import { runEventNotificationSchema } from './runs.js';
import type { V1MethodTypes, V1NotificationTypes } from './wire-types.generated.js';

/**
 * Every v1 request method with its params and result schema, each namespace declared in
 * `methods/<namespace>.ts`; listed in the order of schema/v1.json's `methods`.
 * Contract: adding a method or an optional field is not a break; anything else bumps the protocol.
 */
export const v1Methods = {
  initialize: daemonMethods.initialize,
  'space.open': spaceMethods['space.open'],
  ...sessionMethods,
  'space.trust': spaceMethods['space.trust'],
  ...runMethods,
  'settings.get': settingsMethods['settings.get'],
  'settings.set': settingsMethods['settings.set'],
  ...contextMethods,
  doctor: daemonMethods.doctor,
  ...modelsMethods,
  ...loginMethods,
  'settings.reset': settingsMethods['settings.reset'],
  ...materialsMethods,
  ...packagesMethods,
  'space.list': spaceMethods['space.list'],
  ...filesMethods,
  ...studyDraftMethods,
  ...studyMethods,
  ...studyQuizMethods,
} as const;

/** Every v1 notification (server → client) with its params schema. */
export const v1Notifications = {
  'run.event': runEventNotificationSchema,
  'session.run': sessionRunNotificationSchema,
  'context.progress': contextProgressSchema,
  'login.progress': loginProgressSchema.describe(
    'One step of a `login.start`, sent to the connection that started it.',
  ),
} as const;

/** A v1 request method name. */
export type V1Method = keyof typeof v1Methods;
/** The params of a v1 method. */
export type V1Params<M extends V1Method> = V1MethodTypes[M]['params'];
/** The result of a v1 method. */
export type V1Result<M extends V1Method> = V1MethodTypes[M]['result'];
/** A v1 notification name. */
export type V1Notification = keyof typeof v1Notifications;
/** The params of a v1 notification. */
export type V1NotificationParams<N extends V1Notification> = V1NotificationTypes[N];
