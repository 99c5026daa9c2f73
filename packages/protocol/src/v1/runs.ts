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
import type { RestrictedItem } from './trust.js';
import { restrictedItemSchema } from './trust.js';

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

/** The image MIME types a run's input may carry. */
export const RUN_IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** The largest image a run's input may carry, in bytes (decoded). */
export const RUN_IMAGE_MAX_BYTES = 4 * 1024 * 1024;

const imageData = {
  /** The image's kind: inline bytes. */
  kind: z.literal('data').describe("The image's kind: inline bytes."),
  /** The image bytes, base64-encoded (at most 4 MiB decoded). */
  data: z
    .string()
    .min(1)
    .max(Math.ceil(RUN_IMAGE_MAX_BYTES / 3) * 4 + 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .describe('The image bytes, base64-encoded (at most 4 MiB decoded).'),
  /** The image's MIME type: `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  mimeType: z
    .enum(RUN_IMAGE_MIME_TYPES)
    .describe("The image's MIME type: `image/png`, `image/jpeg`, `image/gif` or `image/webp`."),
};
const imageFile = {
  /** The image's kind: a file of the space. */
  kind: z.literal('file').describe("The image's kind: a file of the space."),
  /** A space path (relative to the root) or identity of an image file, read through the content store. */
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      'A space path (relative to the root) or identity of an image file, read through the content store.',
    ),
};
/** The most inline image bytes one run's input may carry in all (decoded), so it fits in one frame. */
export const RUN_IMAGES_MAX_INLINE_BYTES = 5 * 1024 * 1024;

/** Decoded bytes of the inline images, from their base64 lengths. */
function inlineBytes(images: readonly { kind: string; data?: string }[]): number {
  let total = 0;
  for (const image of images) {
    if (image.kind === 'data' && image.data !== undefined) {
      const padding = image.data.endsWith('==') ? 2 : image.data.endsWith('=') ? 1 : 0;
      total += Math.floor((image.data.length * 3) / 4) - padding;
    }
  }
  return total;
}

/** One image of a run's input: inline base64 bytes, or an image file of the space. */
export const runImageSchema = z.discriminatedUnion('kind', [
  z.strictObject(imageData),
  z.strictObject(imageFile),
]);
/** One image of a run's input: inline base64 bytes, or an image file of the space. */
export type RunImage = RunImageData | RunImageFile;
/** An image given inline. */
export interface RunImageData {
  /** The image's kind: inline bytes. */
  kind: 'data';
  /** The image bytes, base64-encoded (at most 4 MiB decoded). */
  data: string;
  /** The image's MIME type: `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  mimeType: (typeof RUN_IMAGE_MIME_TYPES)[number];
}
/** An image file of the space. */
export interface RunImageFile {
  /** The image's kind: a file of the space. */
  kind: 'file';
  /** A space path (relative to the root) or identity of an image file, read through the content store. */
  path: string;
}

/** A document of the space the user points the run at. */
export const runAttachmentSchema = z.strictObject({
  /** A space path (relative to the root) or identity of a document, read at run start through the content tools' rules. */
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      "A space path (relative to the root) or identity of a document, read at run start through the content tools' rules.",
    ),
});
/** A document of the space the user points the run at. */
export interface RunAttachment {
  /** A space path (relative to the root) or identity of a document, read at run start through the content tools' rules. */
  path: string;
}

const textInput = {
  type: z.literal('text'),
  /** The user's request. */
  text: z.string().min(1).max(1_000_000).describe("The user's request."),
  /** Images sent with the request (at most 8, inline ones at most 5 MiB in all), given to the model as image content. */
  images: z
    .array(runImageSchema)
    .max(8)
    .refine((images) => inlineBytes(images) <= RUN_IMAGES_MAX_INLINE_BYTES, {
      message:
        'The inline images exceed 5 MiB in all; send larger images as {kind: "file", path} of the space.',
    })
    .optional()
    .describe(
      'Images sent with the request (at most 8, inline ones at most 5 MiB in all), given to the model as image content.',
    ),
  /** Documents of the space attached to the request (at most 20), read when the run starts. */
  attachments: z
    .array(runAttachmentSchema)
    .max(20)
    .optional()
    .describe(
      'Documents of the space attached to the request (at most 20), read when the run starts.',
    ),
};

/** A run's input: text, with optional images and attached documents of the space. */
export const runInputSchema = z.discriminatedUnion('type', [z.strictObject(textInput)]);
/** A run's input. */
export interface RunInput {
  /** The input's kind: only `text` today. */
  type: 'text';
  /** The user's request. */
  text: string;
  /** Images sent with the request (at most 8, inline ones at most 5 MiB in all), given to the model as image content. */
  images?: RunImage[] | undefined;
  /** Documents of the space attached to the request (at most 20), read when the run starts. */
  attachments?: RunAttachment[] | undefined;
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
/** How a request reaches the session. */
export type RunDelivery = z.infer<typeof runDeliverySchema>;

/** A document attached to a run, as the run read it. */
export const attachedSourceSchema = z.looseObject({
  /** The document's path relative to the space root. */
  path: z.string().describe("The document's path relative to the space root."),
  /** The version (sha256 of the bytes) the run read. */
  version: z.string().describe('The version (sha256 of the bytes) the run read.'),
});
/** A document attached to a run, as the run read it. */
export interface AttachedSource {
  /** The document's path relative to the space root. */
  path: string;
  /** The version (sha256 of the bytes) the run read. */
  version: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
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
  .discriminatedUnion('type', [
    z.looseObject({
      type: textInput.type,
      text: textInput.text,
      /** The request's images as recorded (inline bytes are not repeated in run records). */
      images: z
        .array(
          z.looseObject({
            /** `data` (sent inline) or `file` (an image file of the space). */
            kind: z
              .enum(['data', 'file'])
              .describe('`data` (sent inline) or `file` (an image file of the space).'),
            /** The MIME type of an inline image. */
            mimeType: z.string().optional().describe('The MIME type of an inline image.'),
            /** The size of an inline image in bytes. */
            bytes: z
              .number()
              .int()
              .nonnegative()
              .optional()
              .describe('The size of an inline image in bytes.'),
            /** The space path or identity of an image file. */
            path: z.string().optional().describe('The space path or identity of an image file.'),
          }),
        )
        .optional()
        .describe(
          "The request's images as recorded (inline bytes are not repeated in run records).",
        ),
      attachments: textInput.attachments,
    }),
  ])
  .meta({ id: 'RunInput', description: "A run's input." });

/** A run's input as run records show it (inline image bytes left out). */
export interface RunInputView {
  /** The input's kind: only `text` today. */
  type: 'text';
  /** The user's request. */
  text: string;
  /** The request's images as recorded (inline bytes are not repeated in run records). */
  images?: RunImageView[] | undefined;
  /** Documents of the space attached to the request (at most 20), read when the run starts. */
  attachments?: RunAttachment[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}
/** One image of a run's input as run records show it. */
export interface RunImageView {
  /** `data` (sent inline) or `file` (an image file of the space). */
  kind: 'data' | 'file';
  /** The MIME type of an inline image. */
  mimeType?: string | undefined;
  /** The size of an inline image in bytes. */
  bytes?: number | undefined;
  /** The space path or identity of an image file. */
  path?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

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
    /** The interrupted or failed run this one resumes (same Pi session, no repeated user message). */
    resumeOf: idSchema
      .optional()
      .describe(
        'The interrupted or failed run this one resumes (same Pi session, no repeated user message).',
      ),
    /** How the request was delivered (absent: `new`). */
    delivery: runDeliverySchema
      .optional()
      .describe('How the request was delivered (absent: `new`).'),
    /** For a queued run not started yet: its place in the session's queue, from 1. */
    queuePosition: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("For a queued run not started yet: its place in the session's queue, from 1."),
    /** For a `steer` or `followUp` request: the run it was delivered into. */
    targetRunId: idSchema
      .optional()
      .describe('For a `steer` or `followUp` request: the run it was delivered into.'),
    /** The attached documents as the run read them, once it started. */
    attachedSources: z
      .array(attachedSourceSchema)
      .optional()
      .describe('The attached documents as the run read them, once it started.'),
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
    /** What the space's restriction left out of the run (absent when the space is trusted). */
    restricted: z
      .array(restrictedItemSchema)
      .optional()
      .describe(
        "What the space's restriction left out of the run (absent when the space is trusted).",
      ),
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
  input: RunInputView;
  /** Current status. */
  status: RunStatus;
  /** Attempt number, 1 for the first; a retry is a new run with `retryOf`. */
  attempt: number;
  /** The run this one retries. */
  retryOf?: string | undefined;
  /** The interrupted or failed run this one resumes (same Pi session, no repeated user message). */
  resumeOf?: string | undefined;
  /** How the request was delivered (absent: `new`). */
  delivery?: RunDelivery | undefined;
  /** For a queued run not started yet: its place in the session's queue, from 1. */
  queuePosition?: number | undefined;
  /** For a `steer` or `followUp` request: the run it was delivered into. */
  targetRunId?: string | undefined;
  /** The attached documents as the run read them, once it started. */
  attachedSources?: AttachedSource[] | undefined;
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
  /** What the space's restriction left out of the run (absent when the space is trusted). */
  restricted?: RestrictedItem[] | undefined;
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
      type: z.literal('steer-delivered'),
      /** The steering text the model now sees. */
      text: z.string().describe('The steering text the model now sees.'),
      /** The `steer` request's own record. */
      requestRunId: idSchema.describe("The `steer` request's own record."),
    }),
    z.looseObject({
      type: z.literal('follow-up-delivered'),
      /** The follow-up text the model now sees. */
      text: z.string().describe('The follow-up text the model now sees.'),
      /** The `followUp` request's own record. */
      requestRunId: idSchema.describe("The `followUp` request's own record."),
    }),
    z.looseObject({
      type: z.literal('sources-attached'),
      /** The attached documents given to the model, with the versions read. */
      sources: z
        .array(attachedSourceSchema)
        .describe('The attached documents given to the model, with the versions read.'),
    }),
    z.looseObject({
      type: z.literal('prompt-sections'),
      /** What the model was told, section by section. */
      sections: z
        .array(promptSectionReportSchema)
        .describe('What the model was told, section by section.'),
      /** What the space's restriction left out (absent when the space is trusted). */
      restricted: z
        .array(restrictedItemSchema)
        .optional()
        .describe("What the space's restriction left out (absent when the space is trusted)."),
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
  | RunPromptSectionsEvent
  | RunSteerDeliveredEvent
  | RunFollowUpDeliveredEvent
  | RunSourcesAttachedEvent;

/** A `steer` request reached the model at a turn boundary of this run. */
export interface RunSteerDeliveredEvent {
  /** The event's kind. */
  type: 'steer-delivered';
  /** The steering text the model now sees. */
  text: string;
  /** The `steer` request's own record. */
  requestRunId: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A `followUp` request reached the model after this run's earlier work. */
export interface RunFollowUpDeliveredEvent {
  /** The event's kind. */
  type: 'follow-up-delivered';
  /** The follow-up text the model now sees. */
  text: string;
  /** The `followUp` request's own record. */
  requestRunId: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The run's attached documents were read and given to the model. */
export interface RunSourcesAttachedEvent {
  /** The event's kind. */
  type: 'sources-attached';
  /** The attached documents given to the model, with the versions read. */
  sources: AttachedSource[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

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
  /** What the space's restriction left out (absent when the space is trusted). */
  restricted?: RestrictedItem[] | undefined;
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
