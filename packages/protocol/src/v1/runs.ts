import { z } from 'zod';
import { approvalAnsweredShape, approvalRecordSchema, approvalRequestShape } from './approvals.js';
import { citationSchema } from './citations.js';
import { idSchema, spaceRootSchema, timestampSchema } from './common.js';
import { fileChangeSchema, saveReceiptSchema } from './content.js';
import { wireErrorSchema } from './errors/repa-error.js';
import { modelSourceSchema } from './models.js';
import { packageResourceSchema } from './packages.js';
import { promptSectionReportSchema } from './prompt.js';
import { saveDiffSchema } from './rewind.js';
import { runInputViewSchema } from './run-input.js';
import {
  editsModeSchema,
  modelSettingsSchema,
  modelSettingsSourcesSchema,
  promptSettingsSchema,
  promptSettingsSourcesSchema,
  studyModeSchema,
  thinkingLevelSchema,
} from './settings.js';
import { restrictedItemSchema } from './trust.js';
import type { RunStatus } from './wire-types.generated.js';

/** A run's lifecycle: `accepted → running → succeeded | failed | cancelled | interrupted`. */
export const runStatusSchema = z
  .enum(['accepted', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'])
  .meta({
    id: 'RunStatus',
    description:
      "A run's lifecycle: `accepted → running → succeeded | failed | cancelled | interrupted`; the last four are terminal.",
  });

/** True once a run has finished (`succeeded`, `failed`, `cancelled` or `interrupted`): its status no longer changes. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return status !== 'accepted' && status !== 'running';
}

/**
 * How a request reaches the session: `new` (the default; `busy` while a run is active), `queue`
 * (started after the runs before it), `steer` (into the active run at its next turn boundary) or
 * `followUp` (into the active run after its current work).
 */
export const runDeliverySchema = z.enum(['new', 'queue', 'steer', 'followUp']).meta({
  id: 'RunDelivery',
  description:
    'How a request reaches the session: `new` (the default; `busy` while a run is active), `queue` (started after the runs before it), `steer` (into the active run at its next turn boundary) or `followUp` (into the active run after its current work).',
});

/** A document attached to a run, as the run read it. */
export const attachedSourceSchema = z.looseObject({
  path: z
    .string()
    .describe(
      "The document's path relative to the space root, or an outside material's `repa:material/<id>`.",
    ),
  version: z.string().describe('The version (sha256 of the bytes) the run read.'),
});

/**
 * One-run overrides of the model settings, recorded with the run (`repa run --model --thinking
 * --edits --study-mode`).
 */
export const runOverridesSchema = z.strictObject({
  model: z.string().min(1).optional().describe('`provider/id` of the model for this run only.'),
  thinkingLevel: thinkingLevelSchema.optional().describe('Pi thinking level for this run only.'),
  edits: editsModeSchema
    .optional()
    .describe('`tools.edits` for this run only: `auto`, `ask` or `off`.'),
  studyMode: studyModeSchema
    .optional()
    .describe('`study.mode` for this run only: `answer` or `tutor`.'),
});

/**
 * Token usage and cost of one run as the provider reported it through Pi (summed over the run's
 * model calls). Contract: these are the provider's figures, never Repa's estimate.
 */
export const runUsageSchema = z.looseObject({
  input: z
    .number()
    .nonnegative()
    .describe('Input tokens the provider billed (not counting cache reads).'),
  output: z.number().nonnegative().describe('Output tokens.'),
  cacheRead: z.number().nonnegative().describe("Input tokens read from the provider's cache."),
  cacheWrite: z.number().nonnegative().describe("Input tokens written to the provider's cache."),
  totalTokens: z.number().nonnegative().describe("All tokens of the run's calls."),
  cost: z
    .number()
    .nonnegative()
    .optional()
    .describe(
      "Cost in US dollars from Pi's price table; absent when Pi knows no price for the model.",
    ),
  calls: z
    .number()
    .int()
    .nonnegative()
    .describe('Model calls counted (retried attempts included).'),
  contextTokensEstimate: z
    .number()
    .nonnegative()
    .optional()
    .describe(
      "Pi's estimate of the session's context size after the run, in tokens (an estimate, R47).",
    ),
  contextWindow: z
    .number()
    .nonnegative()
    .optional()
    .describe("The model's context window, in tokens."),
});

/** One run as the ledger keeps it. */
export const runInfoSchema = z
  .looseObject({
    runId: idSchema.describe("The run's id."),
    requestId: idSchema.describe("The client's request id (idempotency key)."),
    space: spaceRootSchema.describe('The space root (an absolute path).'),
    sessionId: idSchema.describe('The session the run belongs to.'),
    input: runInputViewSchema.describe("The run's input."),
    status: runStatusSchema.describe('Current status.'),
    attempt: z
      .number()
      .int()
      .positive()
      .describe('Attempt number, 1 for the first; a retry is a new run with `retryOf`.'),
    retryOf: idSchema.optional().describe('The run this one retries.'),
    resumeOf: idSchema
      .optional()
      .describe(
        'The interrupted or failed run this one resumes (same Pi session; its request is sent again only when it never entered the history).',
      ),
    delivery: runDeliverySchema
      .optional()
      .describe('How the request was delivered (absent: `new`).'),
    queuePosition: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("For a queued run not started yet: its place in the session's queue, from 1."),
    targetRunId: idSchema
      .optional()
      .describe('For a `steer` or `followUp` request: the run it was delivered into.'),
    attachedSources: z
      .array(attachedSourceSchema)
      .optional()
      .describe('The attached documents as the run read them, once it started.'),
    promptSettings: promptSettingsSchema.describe(
      'The prompt settings decided at acceptance (spec R20).',
    ),
    settingsRevisions: z
      .record(z.string(), z.number().int().nonnegative())
      .describe('The settings revisions those prompt settings were built from, per level.'),
    settingsSources: promptSettingsSourcesSchema
      .optional()
      .describe(
        'The level each of those prompt settings came from (absent on runs recorded before servers kept it).',
      ),
    modelSettings: modelSettingsSchema
      .optional()
      .describe(
        'The model settings decided at acceptance, one-run overrides included (absent on older runs).',
      ),
    modelSettingsSources: modelSettingsSourcesSchema
      .optional()
      .describe('Where each model setting came from (`run` for a one-run override).'),
    model: z
      .string()
      .optional()
      .describe(
        'The model of the run (`provider/id`, `repa-offline` for the local responder), decided at acceptance (older runs: once it started).',
      ),
    modelSource: modelSourceSchema
      .optional()
      .describe('Why the run uses that model (absent on runs recorded before servers kept it).'),
    thinkingLevel: thinkingLevelSchema
      .optional()
      .describe(
        'The thinking level the run uses, decided at acceptance and clamped to the model (absent on older runs).',
      ),
    connection: z
      .string()
      .optional()
      .describe(
        'The connection it uses: provider and credential source, e.g. `anthropic:environment` (absent for `repa-offline`).',
      ),
    promptSections: z
      .array(promptSectionReportSchema)
      .optional()
      .describe('The prompt section report of the run, once it started.'),
    restricted: z
      .array(restrictedItemSchema)
      .optional()
      .describe(
        "What the space's restriction left out of the run (absent when the space is trusted).",
      ),
    approvals: z
      .array(approvalRecordSchema)
      .optional()
      .describe(
        'The saves and commands the run asked the learner about (`tools.edits` `ask`), with their answers (absent when none).',
      ),
    error: wireErrorSchema.optional().describe('Why the run failed, was cancelled or interrupted.'),
    output: z.string().optional().describe('The final assistant text, once finished.'),
    citations: z
      .array(citationSchema)
      .optional()
      .describe("The output's citations as checked when the run ended (absent when it has none)."),
    rewound: z
      .object({
        rewindId: z
          .string()
          .describe('The rewind that undid it (`run.rewind` with it undoes that).'),
        at: timestampSchema.describe('When.'),
      })
      .optional()
      .describe(
        "Set while the run's saves are rewound (absent when never rewound, or the rewind was undone).",
      ),
    usage: runUsageSchema
      .optional()
      .describe(
        "The provider's token usage and cost of the run, once finished (absent if no provider call was made, e.g. on `repa-offline`).",
      ),
    acceptedAt: timestampSchema.describe('When the request was accepted.'),
    startedAt: timestampSchema.optional().describe('When the run actually started.'),
    endedAt: timestampSchema.optional().describe('When the run ended.'),
  })
  .meta({
    id: 'Run',
    description: 'One run as the ledger keeps it.',
  });

/** The `type` member of one kind of run event. */
const eventType = <const T extends string>(type: T) =>
  z.literal(type).describe("The event's kind.");

/** One event of a run, streamed as a `run.event` notification. */
export const runEventSchema = z
  .discriminatedUnion('type', [
    z.looseObject({
      type: eventType('status'),
      status: runStatusSchema.describe('The new status.'),
      error: wireErrorSchema.optional().describe('Why, for failed / cancelled / interrupted.'),
      citations: z
        .array(citationSchema)
        .optional()
        .describe("On a terminal status: the answer's checked citations (absent when none)."),
    }),
    z.looseObject({
      type: eventType('text-delta'),
      delta: z.string().describe('Assistant text as it streams.'),
    }),
    z.looseObject({
      type: eventType('tool-start'),
      toolCallId: z.string().describe("Pi's tool call id."),
      toolName: z.string().describe("The tool's name."),
      args: z.unknown().describe('The arguments the model gave.'),
    }),
    z.looseObject({
      type: eventType('tool-end'),
      toolCallId: z.string().describe("Pi's tool call id."),
      toolName: z.string().describe("The tool's name."),
      isError: z.boolean().describe('Whether the tool reported an error to the model.'),
      operationId: idSchema.optional().describe('Content operation id, for saving tools.'),
      receipts: z.array(saveReceiptSchema).optional().describe('Receipts of what reached disk.'),
      diffs: z
        .array(saveDiffSchema)
        .optional()
        .describe('What each saved file changed, one per receipt that wrote or deleted text.'),
      error: wireErrorSchema.optional().describe('The error the tool returned.'),
      images: z
        .array(z.number().int().positive())
        .optional()
        .describe('The pages of a document `read` sent to the model as images (spec R121).'),
    }),
    z.looseObject({
      type: eventType('tool-progress'),
      toolCallId: z.string().describe("Pi's tool call id."),
      toolName: z.string().describe("The tool's name."),
      target: z.string().describe('What it works on, e.g. the document being read.'),
      done: z.number().int().nonnegative().describe('Pages done so far (spec R122).'),
      total: z.number().int().nonnegative().describe('Pages in all.'),
    }),
    z.looseObject({
      type: eventType('approval-request'),
      ...approvalRequestShape,
    }),
    z.looseObject({
      type: eventType('approval-answered'),
      ...approvalAnsweredShape,
    }),
    z.looseObject({
      type: eventType('context-snapshot'),
      revision: z.string().describe('The learning-context revision provided.'),
      chars: z.number().int().nonnegative().describe('Body length in characters.'),
      sources: z.array(z.string()).describe('The sources the snapshot was built from.'),
    }),
    z.looseObject({
      type: eventType('file-change-notice'),
      changes: z.array(fileChangeSchema).describe('The changes the model was told about.'),
    }),
    z.looseObject({
      type: eventType('compaction'),
      phase: z.enum(['start', 'end']).describe("Start or end of Pi's compaction."),
      tokensBefore: z
        .number()
        .optional()
        .describe("Pi's estimate before (an estimate, never exact)."),
      estimatedTokensAfter: z
        .number()
        .optional()
        .describe("Pi's estimate after (an estimate, never exact)."),
    }),
    z.looseObject({
      type: eventType('retry'),
      attempt: z.number().int().positive().describe("Pi's retry attempt, from 1."),
      maxAttempts: z.number().int().nonnegative().describe("Pi's retry budget."),
      delayMs: z
        .number()
        .nonnegative()
        .describe('How long Pi waits before the attempt, in milliseconds.'),
      reason: z.string().describe('What the provider said about the failed attempt.'),
    }),
    z.looseObject({
      type: eventType('steer-delivered'),
      text: z.string().describe('The steering text the model now sees.'),
      requestRunId: idSchema.describe("The `steer` request's own record."),
    }),
    z.looseObject({
      type: eventType('follow-up-delivered'),
      text: z.string().describe('The follow-up text the model now sees.'),
      requestRunId: idSchema.describe("The `followUp` request's own record."),
    }),
    z.looseObject({
      type: eventType('sources-attached'),
      sources: z
        .array(attachedSourceSchema)
        .describe('The attached documents given to the model, with the versions read.'),
    }),
    z.looseObject({
      type: eventType('prompt-sections'),
      sections: z
        .array(promptSectionReportSchema)
        .describe('What the model was told, section by section.'),
      restricted: z
        .array(restrictedItemSchema)
        .optional()
        .describe("What the space's restriction left out (absent when the space is trusted)."),
      packageResources: z
        .array(packageResourceSchema)
        .optional()
        .describe('What Pi packages brought to the session (absent when nothing).'),
    }),
  ])
  .meta({
    id: 'RunEvent',
    description: 'One event of a run, streamed as a `run.event` notification.',
  });

/** The `run.event` notification's params. */
export const runEventNotificationSchema = z.object({
  runId: idSchema.describe('The run.'),
  sessionId: idSchema.describe("The run's session."),
  seq: z.number().int().positive().describe('Per-run sequence number, from 1, without gaps.'),
  event: runEventSchema.describe('The event.'),
});
