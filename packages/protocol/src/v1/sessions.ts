import { z } from 'zod';
import { citationSchema } from './citations.js';
import { idSchema, spaceRootSchema, timestampSchema } from './common.js';
import { fileChangeSchema, saveReceiptSchema } from './content.js';
import { wireErrorSchema } from './errors/repa-error.js';
import { saveDiffSchema } from './rewind.js';

/** A session of a space. */
export const sessionInfoSchema = z
  .looseObject({
    sessionId: idSchema.describe("The session id (Pi's session id)."),
    space: spaceRootSchema.describe('The space root (an absolute path).'),
    title: z.string().optional().describe('Optional human title.'),
    createdAt: timestampSchema.describe('When the session was created.'),
    updatedAt: timestampSchema.optional().describe('When the session last changed.'),
    damaged: wireErrorSchema
      .optional()
      .describe(
        'Present when the session file is damaged (`session_damaged`): the session is listed but cannot be read or continued; `details.quarantine` names the byte copy kept before anything else.',
      ),
  })
  .meta({
    id: 'Session',
    description: 'A session of a space.',
  });

/** A tool call an assistant message of the history made. */
export const historyToolCallSchema = z
  .looseObject({
    toolCallId: z.string().describe("Pi's tool call id."),
    toolName: z.string().describe("The tool's name."),
    target: z
      .string()
      .optional()
      .describe('What the call works on, as its arguments name it (a path or a search pattern).'),
  })
  .meta({
    id: 'HistoryToolCall',
    description: 'A tool call an assistant message of the history made.',
  });

/**
 * One public history item (spec R27): the real exchange, tool results, context snapshots and
 * summaries. Pi's system entries (prompt and tool configuration) are never projected here.
 */
export const historyItemSchema = z
  .looseObject({
    entryId: z.string().describe('The Pi session entry id.'),
    kind: z
      .enum([
        'user',
        'assistant',
        'tool-result',
        'context-snapshot',
        'file-change-notice',
        'compaction-summary',
        'branch-summary',
      ])
      .describe('What the item is.'),
    timestamp: timestampSchema.describe('When the entry was written.'),
    text: z.string().describe('Text content.'),
    toolName: z
      .string()
      .optional()
      .describe('Tool name, for tool results and assistant tool calls.'),
    isError: z.boolean().optional().describe('Whether a tool result is an error.'),
    citations: z
      .array(citationSchema)
      .optional()
      .describe("For a run's final answer: its checked citations (absent when none)."),
    outcome: z
      .enum(['cancelled', 'failed'])
      .optional()
      .describe(
        'For a reply that did not complete: `cancelled` (stopped on request) or `failed` (the model call failed).',
      ),
    error: z
      .string()
      .optional()
      .describe('For a `failed` reply: what the model call failed with, as the provider said it.'),
    runId: idSchema
      .optional()
      .describe(
        "The run the entry belongs to (the run ledger's id; absent for entries written before runs were marked in the history).",
      ),
    toolCalls: z
      .array(historyToolCallSchema)
      .optional()
      .describe('For an assistant message: the tool calls it made, in order (absent when none).'),
    answerText: z
      .string()
      .optional()
      .describe(
        'For an assistant message with tool calls: its text alone (`text` also names each call as `[name target]`).',
      ),
    toolCallId: z.string().optional().describe('For a tool result: the tool call it answers.'),
    operationId: idSchema
      .optional()
      .describe("For a saving tool's result: its content operation id (`run.rewind` takes it)."),
    receipts: z
      .array(saveReceiptSchema)
      .optional()
      .describe("For a saving tool's result: the receipts of what reached disk."),
    diffs: z
      .array(saveDiffSchema)
      .optional()
      .describe("For a saving tool's result: what each saved file changed."),
    revision: z
      .string()
      .optional()
      .describe('For a context snapshot: the learning-context revision it gave the model.'),
    sources: z
      .array(z.string())
      .optional()
      .describe('For a context snapshot: the sources its body was built from.'),
    changes: z
      .array(fileChangeSchema)
      .optional()
      .describe('For a file-change notice: the changes the model was told about.'),
  })
  .meta({
    id: 'HistoryItem',
    description: 'One public history item (spec R27).',
  });
