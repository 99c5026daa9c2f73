import { z } from 'zod';
import type { WireError } from '../errors/repa-error.js';
import { wireErrorSchema } from '../errors/repa-error.js';
import { idSchema, spaceRootSchema, timestampSchema } from './common.js';
import type { FileChange, SaveReceipt } from './content.js';
import { fileChangeSchema, saveReceiptSchema } from './content.js';
import type { PromptSectionReport } from './prompt.js';
import { promptSectionReportSchema } from './prompt.js';
import type {
  ModelSettings,
  ModelSettingsSources,
  PromptSettings,
  PromptSettingsSources,
  ThinkingLevel,
} from './settings.js';
import {
  modelSettingsSchema,
  modelSettingsSourcesSchema,
  promptSettingsSchema,
  promptSettingsSourcesSchema,
  thinkingLevelSchema,
} from './settings.js';

/** A run's lifecycle: `accepted → running → succeeded | failed | cancelled | interrupted`. */
export const runStatusSchema = z
  .enum(['accepted', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'])
  .meta({
    id: 'RunStatus',
    description:
      "A run's lifecycle: `accepted → running → succeeded | failed | cancelled | interrupted`; the last four are terminal.",
  });
/** A run's status. */
export type RunStatus = z.infer<typeof runStatusSchema>;

/** True once a run has finished (`succeeded`, `failed`, `cancelled` or `interrupted`): its status no longer changes. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return status !== 'accepted' && status !== 'running';
}

const textInput = {
  type: z.literal('text'),
  /** The user's request. */
  text: z.string().min(1).max(1_000_000).describe("The user's request."),
};

/** A run's input. Only text today; other kinds (images, steering) are added as new variants. */
export const runInputSchema = z.discriminatedUnion('type', [z.strictObject(textInput)]);
/** A run's input. */
export interface RunInput {
  /** The input's kind: only `text` today. */
  type: 'text';
  /** The user's request. */
  text: string;
}

/** One-run overrides of the model settings, recorded with the run (`repa run --model --thinking`). */
export const runOverridesSchema = z.strictObject({
  /** `provider/id` of the model for this run only. */
  model: z.string().min(1).optional().describe('`provider/id` of the model for this run only.'),
  /** Pi thinking level for this run only. */
  thinkingLevel: thinkingLevelSchema.optional().describe('Pi thinking level for this run only.'),
});
/** One-run overrides of the model settings. */
export interface RunOverrides {
  /** `provider/id` of the model for this run only. */
  model?: string | undefined;
  /** Pi thinking level for this run only. */
  thinkingLevel?: ThinkingLevel | undefined;
}

/**
 * Token usage and cost of one run as the provider reported it through Pi (summed over the run's
 * model calls). Contract: these are the provider's figures, never Repa's estimate.
 */
export const runUsageSchema = z.looseObject({
  /** Input tokens the provider billed (not counting cache reads). */
  input: z
    .number()
    .nonnegative()
    .describe('Input tokens the provider billed (not counting cache reads).'),
  /** Output tokens. */
  output: z.number().nonnegative().describe('Output tokens.'),
  /** Input tokens read from the provider's cache. */
  cacheRead: z.number().nonnegative().describe("Input tokens read from the provider's cache."),
  /** Input tokens written to the provider's cache. */
  cacheWrite: z.number().nonnegative().describe("Input tokens written to the provider's cache."),
  /** All tokens of the run's calls. */
  totalTokens: z.number().nonnegative().describe("All tokens of the run's calls."),
  /** Cost in US dollars from Pi's price table; absent when Pi knows no price for the model. */
  cost: z
    .number()
    .nonnegative()
    .optional()
    .describe(
      "Cost in US dollars from Pi's price table; absent when Pi knows no price for the model.",
    ),
  /** Model calls counted (retried attempts included). */
  calls: z
    .number()
    .int()
    .nonnegative()
    .describe('Model calls counted (retried attempts included).'),
  /** Pi's estimate of the session's context size after the run, in tokens (an estimate, R47). */
  contextTokensEstimate: z
    .number()
    .nonnegative()
    .optional()
    .describe(
      "Pi's estimate of the session's context size after the run, in tokens (an estimate, R47).",
    ),
  /** The model's context window, in tokens. */
  contextWindow: z
    .number()
    .nonnegative()
    .optional()
    .describe("The model's context window, in tokens."),
});
/** Token usage and cost of one run, as the provider reported it. */
export interface RunUsage {
  /** Input tokens the provider billed (not counting cache reads). */
  input: number;
  /** Output tokens. */
  output: number;
  /** Input tokens read from the provider's cache. */
  cacheRead: number;
  /** Input tokens written to the provider's cache. */
  cacheWrite: number;
  /** All tokens of the run's calls. */
  totalTokens: number;
  /** Cost in US dollars from Pi's price table; absent when Pi knows no price for the model. */
  cost?: number | undefined;
  /** Model calls counted (retried attempts included). */
  calls: number;
  /** Pi's estimate of the session's context size after the run, in tokens (an estimate, R47). */
  contextTokensEstimate?: number | undefined;
  /** The model's context window, in tokens. */
  contextWindow?: number | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

// The input as the server reports it: open, like everything the server sends.
const runInputViewSchema = z
  .discriminatedUnion('type', [z.object(textInput)])
  .meta({ id: 'RunInput', description: "A run's input." });

/** One run as the ledger keeps it. */
export const runInfoSchema = z
  .looseObject({
    /** The run's id. */
    runId: idSchema.describe("The run's id."),
    /** The client's request id (idempotency key). */
    requestId: idSchema.describe("The client's request id (idempotency key)."),
    /** The space root (an absolute path). */
    space: spaceRootSchema.describe('The space root (an absolute path).'),
    /** The session the run belongs to. */
    sessionId: idSchema.describe('The session the run belongs to.'),
    /** The run's input. */
    input: runInputViewSchema.describe("The run's input."),
    /** Current status. */
    status: runStatusSchema.describe('Current status.'),
    /** Attempt number, 1 for the first; a retry is a new run with `retryOf`. */
    attempt: z
      .number()
      .int()
      .positive()
      .describe('Attempt number, 1 for the first; a retry is a new run with `retryOf`.'),
    /** The run this one retries. */
    retryOf: idSchema.optional().describe('The run this one retries.'),
    /** The prompt settings decided at acceptance (spec R20). */
    promptSettings: promptSettingsSchema.describe(
      'The prompt settings decided at acceptance (spec R20).',
    ),
    /** The settings revisions those prompt settings were built from, per level. */
    settingsRevisions: z
      .record(z.string(), z.number().int().nonnegative())
      .describe('The settings revisions those prompt settings were built from, per level.'),
    /**
     * The level each of those prompt settings came from (absent on runs recorded before servers
     * kept it).
     */
    settingsSources: promptSettingsSourcesSchema
      .optional()
      .describe(
        'The level each of those prompt settings came from (absent on runs recorded before servers kept it).',
      ),
    /** The model settings decided at acceptance, one-run overrides included (absent on older runs). */
    modelSettings: modelSettingsSchema
      .optional()
      .describe(
        'The model settings decided at acceptance, one-run overrides included (absent on older runs).',
      ),
    /** Where each model setting came from (`run` for a one-run override). */
    modelSettingsSources: modelSettingsSourcesSchema
      .optional()
      .describe('Where each model setting came from (`run` for a one-run override).'),
    /** The model that answered (`provider/id`), once the run started. */
    model: z
      .string()
      .optional()
      .describe('The model that answered (`provider/id`), once the run started.'),
    /** The connection it used: provider and credential source, e.g. `anthropic:environment`. */
    connection: z
      .string()
      .optional()
      .describe(
        'The connection it used: provider and credential source, e.g. `anthropic:environment`.',
      ),
    /** The prompt section report of the run, once it started. */
    promptSections: z
      .array(promptSectionReportSchema)
      .optional()
      .describe('The prompt section report of the run, once it started.'),
    /** Why the run failed, was cancelled or interrupted. */
    error: wireErrorSchema.optional().describe('Why the run failed, was cancelled or interrupted.'),
    /** The final assistant text, once finished. */
    output: z.string().optional().describe('The final assistant text, once finished.'),
    /** The provider's token usage and cost of the run, once finished (absent if no call was made). */
    usage: runUsageSchema
      .optional()
      .describe(
        "The provider's token usage and cost of the run, once finished (absent if no call was made).",
      ),
    /** When the request was accepted. */
    acceptedAt: timestampSchema.describe('When the request was accepted.'),
    /** When the run actually started. */
    startedAt: timestampSchema.optional().describe('When the run actually started.'),
    /** When the run ended. */
    endedAt: timestampSchema.optional().describe('When the run ended.'),
  })
  .meta({
    id: 'Run',
    description: 'One run as the ledger keeps it.',
  });
/** One run as the ledger keeps it. */
export interface RunInfo {
  /** The run's id. */
  runId: string;
  /** The client's request id (idempotency key). */
  requestId: string;
  /** The space root (an absolute path). */
  space: string;
  /** The session the run belongs to. */
  sessionId: string;
  /** The run's input. */
  input: RunInput;
  /** Current status. */
  status: RunStatus;
  /** Attempt number, 1 for the first; a retry is a new run with `retryOf`. */
  attempt: number;
  /** The run this one retries. */
  retryOf?: string | undefined;
  /** The prompt settings decided at acceptance (spec R20). */
  promptSettings: PromptSettings;
  /** The settings revisions those prompt settings were built from, per level. */
  settingsRevisions: Record<string, number>;
  /**
   * The level each of those prompt settings came from (absent on runs recorded before servers
   * kept it).
   */
  settingsSources?: PromptSettingsSources | undefined;
  /** The model settings decided at acceptance, one-run overrides included (absent on older runs). */
  modelSettings?: ModelSettings | undefined;
  /** Where each model setting came from (`run` for a one-run override). */
  modelSettingsSources?: ModelSettingsSources | undefined;
  /** The model that answered (`provider/id`), once the run started. */
  model?: string | undefined;
  /** The connection it used: provider and credential source, e.g. `anthropic:environment`. */
  connection?: string | undefined;
  /** The prompt section report of the run, once it started. */
  promptSections?: PromptSectionReport[] | undefined;
  /** Why the run failed, was cancelled or interrupted. */
  error?: WireError | undefined;
  /** The final assistant text, once finished. */
  output?: string | undefined;
  /** The provider's token usage and cost of the run, once finished (absent if no call was made). */
  usage?: RunUsage | undefined;
  /** When the request was accepted. */
  acceptedAt: string;
  /** When the run actually started. */
  startedAt?: string | undefined;
  /** When the run ended. */
  endedAt?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One event of a run, streamed as a `run.event` notification. */
export const runEventSchema = z
  .discriminatedUnion('type', [
    z.looseObject({
      type: z.literal('status'),
      /** The new status. */
      status: runStatusSchema.describe('The new status.'),
      /** Why, for failed / cancelled / interrupted. */
      error: wireErrorSchema.optional().describe('Why, for failed / cancelled / interrupted.'),
    }),
    z.looseObject({
      type: z.literal('text-delta'),
      /** Assistant text as it streams. */
      delta: z.string().describe('Assistant text as it streams.'),
    }),
    z.looseObject({
      type: z.literal('tool-start'),
      /** Pi's tool call id. */
      toolCallId: z.string().describe("Pi's tool call id."),
      /** The tool's name. */
      toolName: z.string().describe("The tool's name."),
      /** The arguments the model gave. */
      args: z.unknown().describe('The arguments the model gave.'),
    }),
    z.looseObject({
      type: z.literal('tool-end'),
      /** Pi's tool call id. */
      toolCallId: z.string().describe("Pi's tool call id."),
      /** The tool's name. */
      toolName: z.string().describe("The tool's name."),
      /** Whether the tool reported an error to the model. */
      isError: z.boolean().describe('Whether the tool reported an error to the model.'),
      /** Content operation id, for saving tools. */
      operationId: idSchema.optional().describe('Content operation id, for saving tools.'),
      /** Receipts of what reached disk. */
      receipts: z.array(saveReceiptSchema).optional().describe('Receipts of what reached disk.'),
      /** The error the tool returned. */
      error: wireErrorSchema.optional().describe('The error the tool returned.'),
    }),
    z.looseObject({
      type: z.literal('context-snapshot'),
      /** The learning-context revision provided. */
      revision: z.string().describe('The learning-context revision provided.'),
      /** Body length in characters. */
      chars: z.number().int().nonnegative().describe('Body length in characters.'),
      /** The sources the snapshot was built from. */
      sources: z.array(z.string()).describe('The sources the snapshot was built from.'),
    }),
    z.looseObject({
      type: z.literal('file-change-notice'),
      /** The changes the model was told about. */
      changes: z.array(fileChangeSchema).describe('The changes the model was told about.'),
    }),
    z.looseObject({
      type: z.literal('compaction'),
      /** Start or end of Pi's compaction. */
      phase: z.enum(['start', 'end']).describe("Start or end of Pi's compaction."),
      /** Pi's estimate before (an estimate, never exact). */
      tokensBefore: z
        .number()
        .optional()
        .describe("Pi's estimate before (an estimate, never exact)."),
      /** Pi's estimate after (an estimate, never exact). */
      estimatedTokensAfter: z
        .number()
        .optional()
        .describe("Pi's estimate after (an estimate, never exact)."),
    }),
    z.looseObject({
      type: z.literal('retry'),
      /** Pi's retry attempt, from 1. */
      attempt: z.number().int().positive().describe("Pi's retry attempt, from 1."),
      /** Pi's retry budget. */
      maxAttempts: z.number().int().nonnegative().describe("Pi's retry budget."),
      /** How long Pi waits before the attempt, in milliseconds. */
      delayMs: z
        .number()
        .nonnegative()
        .describe('How long Pi waits before the attempt, in milliseconds.'),
      /** What the provider said about the failed attempt. */
      reason: z.string().describe('What the provider said about the failed attempt.'),
    }),
    z.looseObject({
      type: z.literal('prompt-sections'),
      /** What the model was told, section by section. */
      sections: z
        .array(promptSectionReportSchema)
        .describe('What the model was told, section by section.'),
    }),
  ])
  .meta({
    id: 'RunEvent',
    description: 'One event of a run, streamed as a `run.event` notification.',
  });
/** One event of a run. */
export type RunEvent =
  | RunStatusEvent
  | RunTextDeltaEvent
  | RunToolStartEvent
  | RunToolEndEvent
  | RunContextSnapshotEvent
  | RunFileChangeNoticeEvent
  | RunCompactionEvent
  | RunRetryEvent
  | RunPromptSectionsEvent;

/** A run's status changed. */
export interface RunStatusEvent {
  /** The event's kind. */
  type: 'status';
  /** The new status. */
  status: RunStatus;
  /** Why, for failed / cancelled / interrupted. */
  error?: WireError | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Assistant text streamed. */
export interface RunTextDeltaEvent {
  /** The event's kind. */
  type: 'text-delta';
  /** Assistant text as it streams. */
  delta: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A tool call started. */
export interface RunToolStartEvent {
  /** The event's kind. */
  type: 'tool-start';
  /** Pi's tool call id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** The arguments the model gave. */
  args: unknown;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A tool call ended. */
export interface RunToolEndEvent {
  /** The event's kind. */
  type: 'tool-end';
  /** Pi's tool call id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** Whether the tool reported an error to the model. */
  isError: boolean;
  /** Content operation id, for saving tools. */
  operationId?: string | undefined;
  /** Receipts of what reached disk. */
  receipts?: SaveReceipt[] | undefined;
  /** The error the tool returned. */
  error?: WireError | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The learning context was given to the model. */
export interface RunContextSnapshotEvent {
  /** The event's kind. */
  type: 'context-snapshot';
  /** The learning-context revision provided. */
  revision: string;
  /** Body length in characters. */
  chars: number;
  /** The sources the snapshot was built from. */
  sources: string[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The model was told about file changes. */
export interface RunFileChangeNoticeEvent {
  /** The event's kind. */
  type: 'file-change-notice';
  /** The changes the model was told about. */
  changes: FileChange[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Pi compacted the session's context. */
export interface RunCompactionEvent {
  /** The event's kind. */
  type: 'compaction';
  /** Start or end of Pi's compaction. */
  phase: 'start' | 'end';
  /** Pi's estimate before (an estimate, never exact). */
  tokensBefore?: number | undefined;
  /** Pi's estimate after (an estimate, never exact). */
  estimatedTokensAfter?: number | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Pi retries a failed model call. */
export interface RunRetryEvent {
  /** The event's kind. */
  type: 'retry';
  /** Pi's retry attempt, from 1. */
  attempt: number;
  /** Pi's retry budget. */
  maxAttempts: number;
  /** How long Pi waits before the attempt, in milliseconds. */
  delayMs: number;
  /** What the provider said about the failed attempt. */
  reason: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** What the model was told, section by section. */
export interface RunPromptSectionsEvent {
  /** The event's kind. */
  type: 'prompt-sections';
  /** What the model was told, section by section. */
  sections: PromptSectionReport[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The `run.event` notification's params. */
export const runEventNotificationSchema = z.object({
  /** The run. */
  runId: idSchema.describe('The run.'),
  /** The run's session. */
  sessionId: idSchema.describe("The run's session."),
  /** Per-run sequence number, from 1, without gaps. */
  seq: z.number().int().positive().describe('Per-run sequence number, from 1, without gaps.'),
  /** The event. */
  event: runEventSchema.describe('The event.'),
});
/** The `run.event` notification's params. */
export interface RunEventNotification {
  /** The run. */
  runId: string;
  /** The run's session. */
  sessionId: string;
  /** Per-run sequence number, from 1, without gaps. */
  seq: number;
  /** The event. */
  event: RunEvent;
}
