import { z } from 'zod';
import { wireErrorSchema } from '../errors/repa-error.js';
import { idSchema, PROTOCOL_VERSION, spaceRootSchema } from './common.js';
import { modelInfoSchema } from './models.js';
import {
  runEventNotificationSchema,
  runInfoSchema,
  runInputSchema,
  runOverridesSchema,
  runStatusSchema,
} from './runs.js';
import { historyItemSchema, sessionInfoSchema } from './sessions.js';
import {
  settingItemViewSchema,
  settingsScopeSchema,
  writableSettingsLevelSchema,
} from './settings.js';

/** A space's learning context (`<space>/.repa/learning-context.json`). */
export const learningContextSchema = z.looseObject({
  /** The full body of text given to the model. */
  body: z.string(),
  /** The space-relative sources the body was built from. */
  sources: z.array(z.string()),
  /** Changes on every write; `context.set` compares it. */
  revision: z.string(),
});
/** A space's learning context. */
export type LearningContext = z.infer<typeof learningContextSchema>;

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
      /** Model settings for this run only, over every settings level. */
      overrides: runOverridesSchema.optional(),
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
  'context.get': {
    params: z.object({ /** The space root. */ space: spaceRootSchema }),
    result: z.looseObject({
      /** The space's learning context, or null when it has none. */
      context: learningContextSchema.nullable(),
    }),
  },
  'context.set': {
    params: z.object({
      /** The space root. */
      space: spaceRootSchema,
      /** The full new body. */
      body: z.string(),
      /** The space-relative sources it was built from. */
      sources: z.array(z.string()),
      /** Refuse with `stale_version` unless the current revision is this; null: unless none exists. */
      expectedRevision: z.string().nullable(),
    }),
    result: z.looseObject({ /** The new revision. */ revision: z.string() }),
  },
  doctor: {
    params: z.object({}),
    result: z.looseObject({
      /** The model the daemon's runs use, and which ones have credentials (never the keys). */
      models: z.looseObject({
        /** `provider/id` of the daemon's model (`repa-offline` for the embedded responder). */
        default: z.string(),
        /** True for the embedded offline responder. */
        offline: z.boolean(),
        /** `provider/id` of every model with credentials (empty when offline). */
        available: z.array(z.string()),
        /** Why Pi's configuration could not be read (then `default` is empty). */
        error: wireErrorSchema.optional(),
      }),
      /** Pi's configuration as the daemon sees it. */
      pi: z.looseObject({
        /** Pi's agent directory. */
        agentDir: z.string(),
        /** Whether it exists. */
        exists: z.boolean(),
        /** Whether `auth.json` exists in it. */
        authJson: z.boolean(),
        /** Whether `models.json` exists in it. */
        modelsJson: z.boolean(),
        /** The key variables the daemon looked for (names only). */
        keyVariables: z.array(z.string()),
        /** Those set in the daemon's environment (names only, never values). */
        keyVariablesSet: z.array(z.string()),
      }),
    }),
  },
  'models.list': {
    params: z.object({
      /** Also list the models without credentials. Default false. */
      all: z.boolean().optional(),
    }),
    result: z.looseObject({
      /** The models, credentialed first, then by `provider/id`. */
      models: z.array(modelInfoSchema),
      /** `provider/id` of the daemon's model (`repa-offline` for the embedded responder). */
      default: z.string(),
    }),
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
