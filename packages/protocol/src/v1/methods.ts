import { z } from 'zod';
import { idSchema, PROTOCOL_VERSION, spaceRootSchema } from './common.js';
import {
  runEventNotificationSchema,
  runInfoSchema,
  runInputSchema,
  runStatusSchema,
} from './runs.js';
import { historyItemSchema, sessionInfoSchema } from './sessions.js';
import {
  settingItemViewSchema,
  settingsScopeSchema,
  writableSettingsLevelSchema,
} from './settings.js';

const spaceInfoSchema = z.looseObject({
  /** The space root (absolute, real path). */
  root: spaceRootSchema,
  /** The folder's name. */
  name: z.string(),
  /** The current learning context, when the space has one. */
  learningContext: z
    .object({
      /** Its revision. */
      revision: z.string(),
      /** Body length in characters. */
      chars: z.number().int().nonnegative(),
      /** The sources it was built from. */
      sources: z.array(z.string()),
    })
    .nullable(),
});

/**
 * Every v1 request method with its params and result schema.
 * Contract: adding a method or an optional field is not a break; anything else bumps the protocol.
 */
export const v1Methods = {
  initialize: {
    params: z.object({
      /** Protocol versions the client speaks, most preferred first. */
      protocolVersions: z.array(z.string()).min(1),
      /** The client's name and version, for logs. */
      client: z.object({ name: z.string(), version: z.string() }).optional(),
    }),
    result: z.looseObject({
      /** The version chosen for this connection. */
      protocolVersion: z.literal(PROTOCOL_VERSION),
      /** The server's name and version, and the model its runs use (`repa-offline` offline). */
      server: z.object({ name: z.string(), version: z.string(), model: z.string().optional() }),
    }),
  },
  'space.open': {
    params: z.object({ /** The space root folder. */ root: spaceRootSchema }),
    result: z.looseObject({ space: spaceInfoSchema }),
  },
  'session.create': {
    params: z.object({
      /** The space root. */
      space: spaceRootSchema,
      /** Optional human title. */
      title: z.string().max(500).optional(),
    }),
    result: z.looseObject({ session: sessionInfoSchema }),
  },
  'session.list': {
    params: z.object({ /** The space root. */ space: spaceRootSchema }),
    result: z.looseObject({ sessions: z.array(sessionInfoSchema) }),
  },
  'session.history': {
    params: z.object({
      /** The space root. */
      space: spaceRootSchema,
      /** The session. */
      sessionId: idSchema,
    }),
    result: z.looseObject({ items: z.array(historyItemSchema) }),
  },
  'run.submit': {
    params: z.object({
      /** The space root. */
      space: spaceRootSchema,
      /** The session the run belongs to. */
      sessionId: idSchema,
      /** Client-chosen idempotency key: resubmitting it returns the original run. */
      requestId: idSchema,
      /** What to do. */
      input: runInputSchema,
    }),
    result: z.looseObject({
      /** The accepted (or original) run. */
      run: runInfoSchema,
      /** True when this request id was already accepted and the original run is returned. */
      resubmitted: z.boolean(),
    }),
  },
  'run.get': {
    params: z.object({ /** The run. */ runId: idSchema }),
    result: z.looseObject({ run: runInfoSchema }),
  },
  'run.list': {
    params: z.object({
      /** Only runs of this space. */
      space: spaceRootSchema.optional(),
      /** Only runs of this session. */
      sessionId: idSchema.optional(),
      /** Only runs in this status. */
      status: runStatusSchema.optional(),
      /** At most this many, newest first (default 50). */
      limit: z.number().int().positive().max(1000).optional(),
    }),
    result: z.looseObject({ runs: z.array(runInfoSchema) }),
  },
  'run.subscribe': {
    params: z.object({
      /** The run whose `run.event` notifications this connection wants. */
      runId: idSchema,
    }),
    result: z.looseObject({
      /** The run as it is now; events after this state follow as notifications. */
      run: runInfoSchema,
    }),
  },
  'run.cancel': {
    params: z.object({ /** The run. */ runId: idSchema }),
    result: z.looseObject({ run: runInfoSchema }),
  },
  'run.retry': {
    params: z.object({
      /** The run to retry. */
      runId: idSchema,
      /** Idempotency key of the retry itself. */
      requestId: idSchema,
    }),
    result: z.looseObject({ run: runInfoSchema, resubmitted: z.boolean() }),
  },
  'settings.get': {
    params: settingsScopeSchema,
    result: z.looseObject({ items: z.array(settingItemViewSchema) }),
  },
  'settings.set': {
    params: settingsScopeSchema.extend({
      /** The level to write. */
      level: writableSettingsLevelSchema,
      /** Dotted item key, e.g. `prompts.base`. */
      key: z.string(),
      /** The complete new value of the item. */
      value: z.unknown(),
      /** Refuse with `stale_version` unless the level's revision is this. */
      expectedRevision: z.number().int().nonnegative().optional(),
    }),
    result: z.looseObject({ item: settingItemViewSchema }),
  },
  'settings.reset': {
    params: settingsScopeSchema.extend({
      /** The level to clear. */
      level: writableSettingsLevelSchema,
      /** Dotted item key. */
      key: z.string(),
      /** Refuse with `stale_version` unless the level's revision is this. */
      expectedRevision: z.number().int().nonnegative().optional(),
    }),
    result: z.looseObject({ item: settingItemViewSchema }),
  },
} as const;

/** Every v1 notification (server → client) with its params schema. */
export const v1Notifications = {
  'run.event': runEventNotificationSchema,
} as const;

/** A v1 request method name. */
export type V1Method = keyof typeof v1Methods;
/** The params of a v1 method. */
export type V1Params<M extends V1Method> = z.infer<(typeof v1Methods)[M]['params']>;
/** The result of a v1 method. */
export type V1Result<M extends V1Method> = z.infer<(typeof v1Methods)[M]['result']>;
/** A v1 notification name. */
export type V1Notification = keyof typeof v1Notifications;
/** The params of a v1 notification. */
export type V1NotificationParams<N extends V1Notification> = z.infer<(typeof v1Notifications)[N]>;
