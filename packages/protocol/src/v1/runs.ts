import { z } from 'zod';
import { wireErrorSchema } from '../errors/repa-error.js';
import { idSchema, spaceRootSchema, timestampSchema } from './common.js';
import { fileChangeSchema, saveReceiptSchema } from './content.js';
import { promptSectionReportSchema } from './prompt.js';
import {
  modelSettingsSchema,
  modelSettingsSourcesSchema,
  promptSettingsSchema,
  promptSettingsSourcesSchema,
  thinkingLevelSchema,
} from './settings.js';

/** A run's lifecycle: `accepted → running → succeeded | failed | cancelled | interrupted`. */
export const runStatusSchema = z.enum([
  'accepted',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'interrupted',
]);
/** A run's status. */
export type RunStatus = z.infer<typeof runStatusSchema>;

/** True once a run has finished (`succeeded`, `failed`, `cancelled` or `interrupted`): its status no longer changes. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return status !== 'accepted' && status !== 'running';
}

/** A run's input. Only text today; other kinds (images, steering) are added as new variants. */
export const runInputSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    /** The user's request. */
    text: z.string().min(1).max(1_000_000),
  }),
]);
/** A run's input. */
export type RunInput = z.infer<typeof runInputSchema>;

/** One-run overrides of the model settings, recorded with the run (`repa run --model --thinking`). */
export const runOverridesSchema = z.object({
  /** `provider/id` of the model for this run only. */
  model: z.string().min(1).optional(),
  /** Pi thinking level for this run only. */
  thinkingLevel: thinkingLevelSchema.optional(),
});
/** One-run overrides of the model settings. */
export type RunOverrides = z.infer<typeof runOverridesSchema>;

/**
 * Token usage and cost of one run as the provider reported it through Pi (summed over the run's
 * model calls). Contract: these are the provider's figures, never Repa's estimate.
 */
export const runUsageSchema = z.looseObject({
  /** Input tokens the provider billed (not counting cache reads). */
  input: z.number().nonnegative(),
  /** Output tokens. */
  output: z.number().nonnegative(),
  /** Input tokens read from the provider's cache. */
  cacheRead: z.number().nonnegative(),
  /** Input tokens written to the provider's cache. */
  cacheWrite: z.number().nonnegative(),
  /** All tokens of the run's calls. */
  totalTokens: z.number().nonnegative(),
  /** Cost in US dollars from Pi's price table; absent when Pi knows no price for the model. */
  cost: z.number().nonnegative().optional(),
  /** Model calls counted (retried attempts included). */
  calls: z.number().int().nonnegative(),
  /** Pi's estimate of the session's context size after the run, in tokens (an estimate, R47). */
  contextTokensEstimate: z.number().nonnegative().optional(),
  /** The model's context window, in tokens. */
  contextWindow: z.number().nonnegative().optional(),
});
/** Token usage and cost of one run, as the provider reported it. */
export type RunUsage = z.infer<typeof runUsageSchema>;

/** One run as the ledger keeps it. */
export const runInfoSchema = z.looseObject({
  /** The run's id. */
  runId: idSchema,
  /** The client's request id (idempotency key). */
  requestId: idSchema,
  /** The space root. */
  space: spaceRootSchema,
  /** The session the run belongs to. */
  sessionId: idSchema,
  /** The run's input. */
  input: runInputSchema,
  /** Current status. */
  status: runStatusSchema,
  /** Attempt number, 1 for the first; a retry is a new run with `retryOf`. */
  attempt: z.number().int().positive(),
  /** The run this one retries. */
  retryOf: idSchema.optional(),
  /** The prompt settings decided at acceptance (spec R20). */
  promptSettings: promptSettingsSchema,
  /** The settings revisions those prompt settings were built from, per level. */
  settingsRevisions: z.record(z.string(), z.number().int().nonnegative()),
  /**
   * The level each of those prompt settings came from (absent on runs recorded before servers
   * kept it).
   */
  settingsSources: promptSettingsSourcesSchema.optional(),
  /** The model settings decided at acceptance, one-run overrides included (absent on older runs). */
  modelSettings: modelSettingsSchema.optional(),
  /** Where each model setting came from (`run` for a one-run override). */
  modelSettingsSources: modelSettingsSourcesSchema.optional(),
  /** The model that answered (`provider/id`), once the run started. */
  model: z.string().optional(),
  /** The connection it used: provider and credential source, e.g. `anthropic:environment`. */
  connection: z.string().optional(),
  /** The prompt section report of the run, once it started. */
  promptSections: z.array(promptSectionReportSchema).optional(),
  /** Why the run failed, was cancelled or interrupted. */
  error: wireErrorSchema.optional(),
  /** The final assistant text, once finished. */
  output: z.string().optional(),
  /** The provider's token usage and cost of the run, once finished (absent if no call was made). */
  usage: runUsageSchema.optional(),
  /** When the request was accepted. */
  acceptedAt: timestampSchema,
  /** When the run actually started. */
  startedAt: timestampSchema.optional(),
  /** When the run ended. */
  endedAt: timestampSchema.optional(),
});
/** One run as the ledger keeps it. */
export type RunInfo = z.infer<typeof runInfoSchema>;

/** One event of a run, streamed as a `run.event` notification. */
export const runEventSchema = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('status'),
    /** The new status. */
    status: runStatusSchema,
    /** Why, for failed / cancelled / interrupted. */
    error: wireErrorSchema.optional(),
  }),
  z.looseObject({
    type: z.literal('text-delta'),
    /** Assistant text as it streams. */
    delta: z.string(),
  }),
  z.looseObject({
    type: z.literal('tool-start'),
    /** Pi's tool call id. */
    toolCallId: z.string(),
    /** The tool's name. */
    toolName: z.string(),
    /** The arguments the model gave. */
    args: z.unknown(),
  }),
  z.looseObject({
    type: z.literal('tool-end'),
    /** Pi's tool call id. */
    toolCallId: z.string(),
    /** The tool's name. */
    toolName: z.string(),
    /** Whether the tool reported an error to the model. */
    isError: z.boolean(),
    /** Content operation id, for saving tools. */
    operationId: idSchema.optional(),
    /** Receipts of what reached disk. */
    receipts: z.array(saveReceiptSchema).optional(),
    /** The error the tool returned. */
    error: wireErrorSchema.optional(),
  }),
  z.looseObject({
    type: z.literal('context-snapshot'),
    /** The learning-context revision provided. */
    revision: z.string(),
    /** Body length in characters. */
    chars: z.number().int().nonnegative(),
    /** The sources the snapshot was built from. */
    sources: z.array(z.string()),
  }),
  z.looseObject({
    type: z.literal('file-change-notice'),
    /** The changes the model was told about. */
    changes: z.array(fileChangeSchema),
  }),
  z.looseObject({
    type: z.literal('compaction'),
    /** Start or end of Pi's compaction. */
    phase: z.enum(['start', 'end']),
    /** Pi's estimate before (an estimate, never exact). */
    tokensBefore: z.number().optional(),
    /** Pi's estimate after (an estimate, never exact). */
    estimatedTokensAfter: z.number().optional(),
  }),
  z.looseObject({
    type: z.literal('retry'),
    /** Pi's retry attempt, from 1. */
    attempt: z.number().int().positive(),
    /** Pi's retry budget. */
    maxAttempts: z.number().int().nonnegative(),
    /** How long Pi waits before the attempt, in milliseconds. */
    delayMs: z.number().nonnegative(),
    /** What the provider said about the failed attempt. */
    reason: z.string(),
  }),
  z.looseObject({
    type: z.literal('prompt-sections'),
    /** What the model was told, section by section. */
    sections: z.array(promptSectionReportSchema),
  }),
]);
/** One event of a run. */
export type RunEvent = z.infer<typeof runEventSchema>;

/** The `run.event` notification's params. */
export const runEventNotificationSchema = z.object({
  /** The run. */
  runId: idSchema,
  /** The run's session. */
  sessionId: idSchema,
  /** Per-run sequence number, from 1, without gaps. */
  seq: z.number().int().positive(),
  /** The event. */
  event: runEventSchema,
});
/** The `run.event` notification's params. */
export type RunEventNotification = z.infer<typeof runEventNotificationSchema>;
