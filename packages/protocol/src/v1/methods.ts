import { z } from 'zod';
import { wireErrorSchema } from '../errors/repa-error.js';
import { idSchema, PROTOCOL_VERSION, spaceRootSchema } from './common.js';
import { learningContextSchema } from './learning-context.js';
import { loginProgressSchema, loginTypeSchema } from './login.js';
import type { V1MethodTypes, V1NotificationTypes } from './method-types.js';
import { modelInfoSchema } from './models.js';
import {
  runDeliverySchema,
  runEventNotificationSchema,
  runInfoSchema,
  runInputSchema,
  runOverridesSchema,
  runStatusSchema,
} from './runs.js';
import { historyItemSchema, sessionInfoSchema } from './sessions.js';
import {
  settingItemViewSchema,
  settingsGetParamsSchema,
  settingsResetParamsSchema,
  settingsSetParamsSchema,
} from './settings.js';
import { restrictedItemSchema, trustReasonSchema } from './trust.js';

const spaceInfoSchema = z.looseObject({
  /** The space root (an absolute, real path). */
  root: spaceRootSchema.describe('The space root (an absolute, real path).'),
  /** The folder's name. */
  name: z.string().describe("The folder's name."),
  /** The current learning context, when the space has one. */
  learningContext: z
    .object({
      /** Its revision. */
      revision: z.string().describe('Its revision.'),
      /** Body length in characters. */
      chars: z.number().int().nonnegative().describe('Body length in characters.'),
      /** The sources it was built from. */
      sources: z.array(z.string()).describe('The sources it was built from.'),
    })
    .nullable()
    .describe('The current learning context, when the space has one.'),
  /** Whether the learner trusts the space (spec R13); untrusted, what `restricted` lists has no effect. */
  trusted: z
    .boolean()
    .optional()
    .describe(
      'Whether the learner trusts the space (spec R13); untrusted, what `restricted` lists has no effect.',
    ),
  /** Why it is trusted: `user` (`space.trust`) or `created` (Repa made a plain folder a space). */
  trustReason: trustReasonSchema
    .optional()
    .describe(
      'Why it is trusted: `user` (`space.trust`) or `created` (Repa made a plain folder a space).',
    ),
  /** What the space holds that has no effect until it is trusted (empty when trusted). */
  restricted: z
    .array(restrictedItemSchema)
    .optional()
    .describe('What the space holds that has no effect until it is trusted (empty when trusted).'),
});

/**
 * Every v1 request method with its params and result schema.
 * Contract: adding a method or an optional field is not a break; anything else bumps the protocol.
 */
export const v1Methods = {
  /** Negotiates the protocol version; the first call on every connection. */
  initialize: {
    description: 'Negotiates the protocol version; the first call on every connection.',
    params: z.strictObject({
      /** Protocol versions the client speaks, most preferred first. */
      protocolVersions: z
        .array(z.string())
        .min(1)
        .describe('Protocol versions the client speaks, most preferred first.'),
      /** The client's name and version, for logs. */
      client: z
        .strictObject({
          /** The client's name. */
          name: z.string().describe("The client's name."),
          /** The client's version. */
          version: z.string().describe("The client's version."),
        })
        .optional()
        .describe("The client's name and version, for logs."),
    }),
    result: z.looseObject({
      /** The version chosen for this connection. */
      protocolVersion: z
        .literal(PROTOCOL_VERSION)
        .describe('The version chosen for this connection.'),
      /** The server's name and version, and the model its runs use (`repa-offline` offline). */
      server: z
        .object({
          /** The server's name. */
          name: z.string().describe("The server's name."),
          /** The server's version. */
          version: z.string().describe("The server's version."),
          /** `provider/id` of the model its runs use (`repa-offline` offline). */
          model: z
            .string()
            .optional()
            .describe('`provider/id` of the model its runs use (`repa-offline` offline).'),
        })
        .describe(
          "The server's name and version, and the model its runs use (`repa-offline` offline).",
        ),
    }),
  },
  /** Opens a space folder and describes it (name, learning context). */
  'space.open': {
    description: 'Opens a space folder and describes it (name, learning context).',
    params: z.strictObject({
      /** The space root folder (an absolute path). */
      root: spaceRootSchema.describe('The space root folder (an absolute path).'),
    }),
    result: z.looseObject({
      /** The opened space. */
      space: spaceInfoSchema.describe('The opened space.'),
    }),
  },
  /** Creates a session in a space. */
  'session.create': {
    description: 'Creates a session in a space.',
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** Optional human title. */
      title: z.string().max(500).optional().describe('Optional human title.'),
    }),
    result: z.looseObject({
      /** The new session. */
      session: sessionInfoSchema.describe('The new session.'),
    }),
  },
  /** Lists the sessions of a space, newest first; damaged ones carry `damaged`. */
  'session.list': {
    description: 'Lists the sessions of a space, newest first; damaged ones carry `damaged`.',
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
    }),
    result: z.looseObject({
      /** The sessions of the space, newest first. */
      sessions: z.array(sessionInfoSchema).describe('The sessions of the space, newest first.'),
    }),
  },
  /** The public history of a session (spec R27). */
  'session.history': {
    description: 'The public history of a session (spec R27).',
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** The session. */
      sessionId: idSchema.describe('The session.'),
    }),
    result: z.looseObject({
      /** The session's public history, oldest first. */
      items: z.array(historyItemSchema).describe("The session's public history, oldest first."),
    }),
  },
  /** Gives a session a new title. */
  'session.rename': {
    description: 'Gives a session a new title.',
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** The session. */
      sessionId: idSchema.describe('The session.'),
      /** The new title. */
      title: z.string().min(1).max(500).describe('The new title.'),
    }),
    result: z.looseObject({
      /** The renamed session. */
      session: sessionInfoSchema.describe('The renamed session.'),
    }),
  },
  /** Deletes a session's file; `busy` while one of its runs is accepted or running. */
  'session.delete': {
    description: "Deletes a session's file; `busy` while one of its runs is accepted or running.",
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** The session. */
      sessionId: idSchema.describe('The session.'),
    }),
    result: z.looseObject({
      /** The deleted session's id. */
      sessionId: idSchema.describe("The deleted session's id."),
    }),
  },
  /** Records whether the learner trusts a space (kept in the app directory; spec R13). */
  'space.trust': {
    description:
      'Records whether the learner trusts a space (kept in the app directory; spec R13).',
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** True trusts the space from the next run on; false withdraws the trust. */
      trusted: z
        .boolean()
        .describe('True trusts the space from the next run on; false withdraws the trust.'),
    }),
    result: z.looseObject({
      /** The space root (its real path). */
      space: spaceRootSchema.describe('The space root (its real path).'),
      /** Whether the space is trusted now. */
      trusted: z.boolean().describe('Whether the space is trusted now.'),
      /** Whether it was trusted before this call. */
      wasTrusted: z.boolean().describe('Whether it was trusted before this call.'),
      /** What the space holds that trusting it lets take effect (restricted again when distrusted). */
      restricted: z
        .array(restrictedItemSchema)
        .optional()
        .describe(
          'What the space holds that trusting it lets take effect (restricted again when distrusted).',
        ),
    }),
  },
  /** Accepts a run (idempotent by `requestId`) and subscribes this connection to its events. */
  'run.submit': {
    description:
      'Accepts a run (idempotent by `requestId`) and subscribes this connection to its events.',
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** The session the run belongs to. */
      sessionId: idSchema.describe('The session the run belongs to.'),
      /** Client-chosen idempotency key: resubmitting it returns the original run. */
      requestId: idSchema.describe(
        'Client-chosen idempotency key: resubmitting it returns the original run.',
      ),
      /** What to do. */
      input: runInputSchema.describe('What to do.'),
      /** Model settings for this run only, over every settings level. */
      overrides: runOverridesSchema
        .optional()
        .describe('Model settings for this run only, over every settings level.'),
      /**
       * How the request reaches the session (default `new`): `queue` waits behind the session's
       * runs; `steer` and `followUp` go into its active run (`no_active_run` when there is none).
       */
      delivery: runDeliverySchema
        .optional()
        .describe(
          "How the request reaches the session (default `new`): `queue` waits behind the session's runs; `steer` and `followUp` go into its active run (`no_active_run` when there is none).",
        ),
    }),
    result: z.looseObject({
      /** The accepted (or original) run. */
      run: runInfoSchema.describe('The accepted (or original) run.'),
      /** True when this request id was already accepted and the original run is returned. */
      resubmitted: z
        .boolean()
        .describe(
          'True when this request id was already accepted and the original run is returned.',
        ),
    }),
  },
  /** One run as the ledger keeps it. */
  'run.get': {
    description: 'One run as the ledger keeps it.',
    params: z.strictObject({
      /** The run. */
      runId: idSchema.describe('The run.'),
    }),
    result: z.looseObject({
      /** The run. */
      run: runInfoSchema.describe('The run.'),
    }),
  },
  /** Runs, newest first, filtered by space, session and status. */
  'run.list': {
    description: 'Runs, newest first, filtered by space, session and status.',
    params: z.strictObject({
      /** Only runs of this space. */
      space: spaceRootSchema.optional().describe('Only runs of this space.'),
      /** Only runs of this session. */
      sessionId: idSchema.optional().describe('Only runs of this session.'),
      /** Only runs in this status. */
      status: runStatusSchema.optional().describe('Only runs in this status.'),
      /** At most this many, newest first (default 50). */
      limit: z
        .number()
        .int()
        .positive()
        .max(1000)
        .optional()
        .describe('At most this many, newest first (default 50).'),
    }),
    result: z.looseObject({
      /** The matching runs, newest first. */
      runs: z.array(runInfoSchema).describe('The matching runs, newest first.'),
    }),
  },
  /** Subscribes this connection to `run.event` notifications of a run. */
  'run.subscribe': {
    description: 'Subscribes this connection to `run.event` notifications of a run.',
    params: z.strictObject({
      /** The run whose `run.event` notifications this connection wants. */
      runId: idSchema.describe('The run whose `run.event` notifications this connection wants.'),
    }),
    result: z.looseObject({
      /** The run as it is now; events after this state follow as notifications. */
      run: runInfoSchema.describe(
        'The run as it is now; events after this state follow as notifications.',
      ),
    }),
  },
  /** Cancels a run; answers the run as it is then. */
  'run.cancel': {
    description: 'Cancels a run; answers the run as it is then.',
    params: z.strictObject({
      /** The run. */
      runId: idSchema.describe('The run.'),
    }),
    result: z.looseObject({
      /** The run. */
      run: runInfoSchema.describe('The run.'),
    }),
  },
  /** Retries a finished run as a new run (idempotent by `requestId`) and subscribes this connection to it. */
  'run.retry': {
    description:
      'Retries a finished run as a new run (idempotent by `requestId`) and subscribes this connection to it.',
    params: z.strictObject({
      /** The run to retry. */
      runId: idSchema.describe('The run to retry.'),
      /** Idempotency key of the retry itself. */
      requestId: idSchema.describe('Idempotency key of the retry itself.'),
    }),
    result: z.looseObject({
      /** The retry (or the original retry for a repeated request id). */
      run: runInfoSchema.describe('The retry (or the original retry for a repeated request id).'),
      /** True when this request id was already accepted and the original retry is returned. */
      resubmitted: z
        .boolean()
        .describe(
          'True when this request id was already accepted and the original retry is returned.',
        ),
    }),
  },
  /**
   * Resumes an interrupted or failed run as a new attempt in the same Pi session, from where its
   * history ends (no repeated user message), with the original's accepted settings.
   */
  'run.resume': {
    description:
      "Resumes an interrupted or failed run as a new attempt in the same Pi session, from where its history ends (no repeated user message), with the original's accepted settings.",
    params: z.strictObject({
      /** The interrupted or failed run to resume. */
      runId: idSchema.describe('The interrupted or failed run to resume.'),
      /** Idempotency key of the resumption itself. */
      requestId: idSchema.describe('Idempotency key of the resumption itself.'),
    }),
    result: z.looseObject({
      /** The new attempt (or the original one for a repeated request id). */
      run: runInfoSchema.describe(
        'The new attempt (or the original one for a repeated request id).',
      ),
      /** True when this request id was already accepted and the original attempt is returned. */
      resubmitted: z
        .boolean()
        .describe(
          'True when this request id was already accepted and the original attempt is returned.',
        ),
    }),
  },
  /** Every settings item as the given scope sees it. */
  'settings.get': {
    description: 'Every settings item as the given scope sees it.',
    params: settingsGetParamsSchema,
    result: z.looseObject({
      /** Every settings item, in registry order. */
      items: z.array(settingItemViewSchema).describe('Every settings item, in registry order.'),
    }),
  },
  /** Stores the complete value of one item at one level. */
  'settings.set': {
    description: 'Stores the complete value of one item at one level.',
    params: settingsSetParamsSchema,
    result: z.looseObject({
      /** The item afterwards. */
      item: settingItemViewSchema.describe('The item afterwards.'),
    }),
  },
  /** A space's learning context. */
  'context.get': {
    description: "A space's learning context.",
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** The session whose settings decide `provided`, and whose last-provided revision is told. */
      sessionId: idSchema
        .optional()
        .describe(
          'The session whose settings decide `provided`, and whose last-provided revision is told.',
        ),
    }),
    result: z.looseObject({
      /** The space's learning context, or null when it has none. */
      context: learningContextSchema
        .nullable()
        .describe("The space's learning context, or null when it has none."),
      /** Whether the next run is given it: the effective `prompts.learningContext` and its level. */
      provided: z
        .looseObject({
          /** The effective value of `prompts.learningContext`. */
          value: z.boolean().describe('The effective value of `prompts.learningContext`.'),
          /** The level the value comes from. */
          source: z.string().describe('The level the value comes from.'),
        })
        .optional()
        .describe(
          'Whether the next run is given it: the effective `prompts.learningContext` and its level.',
        ),
      /** With `sessionId`: the revision last given to that session (null: none yet). */
      lastProvidedRevision: z
        .string()
        .nullable()
        .optional()
        .describe('With `sessionId`: the revision last given to that session (null: none yet).'),
      /** Why no run is given `context` although the space has it (it came with an untrusted folder). */
      ignored: z
        .string()
        .optional()
        .describe(
          'Why no run is given `context` although the space has it (it came with an untrusted folder).',
        ),
    }),
  },
  /** Replaces a space's learning context (compare-and-set on its revision). */
  'context.set': {
    description: "Replaces a space's learning context (compare-and-set on its revision).",
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** The full new body. */
      body: z.string().describe('The full new body.'),
      /** The space-relative sources it was built from. */
      sources: z.array(z.string()).describe('The space-relative sources it was built from.'),
      /** Refuse with `stale_version` unless the current revision is this; null: unless none exists. */
      expectedRevision: z
        .string()
        .nullable()
        .describe(
          'Refuse with `stale_version` unless the current revision is this; null: unless none exists.',
        ),
      /** Replace a damaged file, keeping its bytes beside it (`damagedFileKept`). */
      force: z
        .boolean()
        .optional()
        .describe('Replace a damaged file, keeping its bytes beside it (`damagedFileKept`).'),
    }),
    result: z.looseObject({
      /** The new revision. */
      revision: z.string().describe('The new revision.'),
      /** Where a damaged file replaced with `force` was kept. */
      damagedFileKept: z
        .string()
        .optional()
        .describe('Where a damaged file replaced with `force` was kept.'),
    }),
  },
  /** Builds a space's learning context from documents (progress as `context.progress`); nothing is written unless it completes. */
  'context.build': {
    description:
      "Builds a space's learning context from documents (progress as `context.progress`); nothing is written unless it completes.",
    params: z.strictObject({
      /** The space root (an absolute path). */
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      /** Client-chosen id of this build: its `context.progress` notifications and `context.cancel`. */
      buildId: idSchema.describe(
        'Client-chosen id of this build: its `context.progress` notifications and `context.cancel`.',
      ),
      /** Space-relative paths of the documents to build from. */
      sources: z
        .array(z.string())
        .min(1)
        .max(100)
        .describe('Space-relative paths of the documents to build from.'),
      /** What the context should focus on. */
      instructions: z.string().max(4000).optional().describe('What the context should focus on.'),
      /** Refuse with `stale_version` unless the current revision is this (null: none); any when absent. */
      expectedRevision: z
        .string()
        .nullable()
        .optional()
        .describe(
          'Refuse with `stale_version` unless the current revision is this (null: none); any when absent.',
        ),
      /** Replace a damaged file, keeping its bytes beside it. */
      force: z
        .boolean()
        .optional()
        .describe('Replace a damaged file, keeping its bytes beside it.'),
    }),
    result: z.looseObject({
      /** The new revision. */
      revision: z.string().describe('The new revision.'),
      /** `provider/id` of the model that wrote it, or `repa-offline`. */
      model: z.string().describe('`provider/id` of the model that wrote it, or `repa-offline`.'),
      /** True when built offline by extraction (headings and first sentences), not by a model. */
      extractive: z
        .boolean()
        .describe(
          'True when built offline by extraction (headings and first sentences), not by a model.',
        ),
      /** Sources cut to fit the model's window, with how much of each it saw. */
      cut: z
        .array(
          z.looseObject({
            /** The source. */
            path: z.string().describe('The source.'),
            /** Characters the model saw. */
            keptChars: z.number().describe('Characters the model saw.'),
            /** Characters the source has. */
            totalChars: z.number().describe('Characters the source has.'),
          }),
        )
        .describe("Sources cut to fit the model's window, with how much of each it saw."),
      /** Where a damaged file replaced with `force` was kept. */
      damagedFileKept: z
        .string()
        .optional()
        .describe('Where a damaged file replaced with `force` was kept.'),
    }),
  },
  /** Cancels a running `context.build`; nothing is written. */
  'context.cancel': {
    description: 'Cancels a running `context.build`; nothing is written.',
    params: z.strictObject({
      /** The build to cancel. */
      buildId: idSchema.describe('The build to cancel.'),
    }),
    result: z.looseObject({
      /** False when no such build is running. */
      cancelled: z.boolean().describe('False when no such build is running.'),
    }),
  },
  /** The daemon's model and Pi configuration, for diagnosis (never secrets). */
  doctor: {
    description: "The daemon's model and Pi configuration, for diagnosis (never secrets).",
    params: z.strictObject({}),
    result: z.looseObject({
      /** The model the daemon's runs use, and which ones have credentials (never the keys). */
      models: z
        .looseObject({
          /** `provider/id` of the daemon's model (`repa-offline` for the embedded responder). */
          default: z
            .string()
            .describe(
              "`provider/id` of the daemon's model (`repa-offline` for the embedded responder).",
            ),
          /** True for the embedded offline responder. */
          offline: z.boolean().describe('True for the embedded offline responder.'),
          /** `provider/id` of every model with credentials (empty when offline). */
          available: z
            .array(z.string())
            .describe('`provider/id` of every model with credentials (empty when offline).'),
          /** Why Pi's configuration could not be read (then `default` is empty). */
          error: wireErrorSchema
            .optional()
            .describe("Why Pi's configuration could not be read (then `default` is empty)."),
        })
        .describe(
          "The model the daemon's runs use, and which ones have credentials (never the keys).",
        ),
      /** Pi's configuration as the daemon sees it. */
      pi: z
        .looseObject({
          /** Pi's agent directory. */
          agentDir: z.string().describe("Pi's agent directory."),
          /** Whether it exists. */
          exists: z.boolean().describe('Whether it exists.'),
          /** Whether `auth.json` exists in it. */
          authJson: z.boolean().describe('Whether `auth.json` exists in it.'),
          /** Whether `models.json` exists in it. */
          modelsJson: z.boolean().describe('Whether `models.json` exists in it.'),
          /** The key variables the daemon looked for (names only). */
          keyVariables: z
            .array(z.string())
            .describe('The key variables the daemon looked for (names only).'),
          /** Those set in the daemon's environment (names only, never values). */
          keyVariablesSet: z
            .array(z.string())
            .describe("Those set in the daemon's environment (names only, never values)."),
        })
        .describe("Pi's configuration as the daemon sees it."),
      /** Whether the `bash` tool's sandbox starts where the daemon runs (absent from older servers). */
      sandbox: z
        .looseObject({
          /** The `bwrap` on the daemon's `PATH`, or null when there is none. */
          bwrap: z
            .string()
            .nullable()
            .describe("The `bwrap` on the daemon's `PATH`, or null when there is none."),
          /** Whether a sandbox started (and, as root, a pids cgroup could be made). */
          ready: z
            .boolean()
            .describe('Whether a sandbox started (and, as root, a pids cgroup could be made).'),
          /** Why not, when not ready (`sandbox_unavailable`, with the fix). */
          error: wireErrorSchema
            .optional()
            .describe('Why not, when not ready (`sandbox_unavailable`, with the fix).'),
        })
        .optional()
        .describe(
          "Whether the `bash` tool's sandbox starts where the daemon runs (absent from older servers).",
        ),
    }),
  },
  /** The models Pi knows, with where their credentials come from (never the secrets). */
  'models.list': {
    description: 'The models Pi knows, with where their credentials come from (never the secrets).',
    params: z.strictObject({
      /** Also list the models without credentials. Default false. */
      all: z
        .boolean()
        .optional()
        .describe('Also list the models without credentials. Default false.'),
    }),
    result: z.looseObject({
      /** The models, credentialed first, then by `provider/id`. */
      models: z
        .array(modelInfoSchema)
        .describe('The models, credentialed first, then by `provider/id`.'),
      /** `provider/id` of the daemon's model (`repa-offline` for the embedded responder). */
      default: z
        .string()
        .describe(
          "`provider/id` of the daemon's model (`repa-offline` for the embedded responder).",
        ),
    }),
  },
  /**
   * Signs in to a provider through Pi's own login (API key or OAuth), telling its steps as
   * `login.progress` to this connection; Pi stores the credential in its `auth.json`.
   */
  'login.start': {
    description:
      "Signs in to a provider through Pi's own login (API key or OAuth), telling its steps as `login.progress` to this connection; Pi stores the credential in its `auth.json`.",
    params: z.strictObject({
      /** Pi's provider id, e.g. `anthropic`. */
      provider: z.string().min(1).describe("Pi's provider id, e.g. `anthropic`."),
      /** `api_key` (Pi asks for the key) or `oauth` (Pi's sign-in flow). */
      type: loginTypeSchema.describe(
        "`api_key` (Pi asks for the key) or `oauth` (Pi's sign-in flow).",
      ),
      /** Names this login in `login.progress` and `login.answer`; chosen by the client. */
      loginId: idSchema.describe(
        'Names this login in `login.progress` and `login.answer`; chosen by the client.',
      ),
    }),
    result: z.looseObject({
      /** The connection now configured: provider and credential source, e.g. `anthropic:auth-file`. */
      connection: z
        .string()
        .describe(
          'The connection now configured: provider and credential source, e.g. `anthropic:auth-file`.',
        ),
    }),
  },
  /** Answers a `prompt` step of a running login (the key, a code or a choice). */
  'login.answer': {
    description: 'Answers a `prompt` step of a running login (the key, a code or a choice).',
    params: z.strictObject({
      /** The login. */
      loginId: idSchema.describe('The login.'),
      /** The prompt being answered. */
      promptId: idSchema.describe('The prompt being answered.'),
      /** The answer (a `select` prompt takes the option's `id`). */
      value: z.string().describe("The answer (a `select` prompt takes the option's `id`)."),
    }),
    result: z.looseObject({
      /** False when no such prompt is waiting (answered, cancelled or unknown). */
      accepted: z
        .boolean()
        .describe('False when no such prompt is waiting (answered, cancelled or unknown).'),
    }),
  },
  /** Removes one item's value at one level. */
  'settings.reset': {
    description: "Removes one item's value at one level.",
    params: settingsResetParamsSchema,
    result: z.looseObject({
      /** The item afterwards. */
      item: settingItemViewSchema.describe('The item afterwards.'),
    }),
  },
} as const;

/** Every v1 notification (server → client) with its params schema. */
export const v1Notifications = {
  'run.event': runEventNotificationSchema,
  /** Progress of a `context.build`, sent to the connection that asked for it. */
  'context.progress': z
    .looseObject({
      /** The build. */
      buildId: idSchema.describe('The build.'),
      /** `reading`, `extracting`, `model` or `writing`. */
      step: z.string().describe('`reading`, `extracting`, `model` or `writing`.'),
      /** One line for people. */
      message: z.string().describe('One line for people.'),
    })
    .describe('Progress of a `context.build`, sent to the connection that asked for it.'),
  /** One step of a `login.start`, sent to the connection that started it. */
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
