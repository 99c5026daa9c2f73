import { z } from 'zod';
import { wireErrorSchema } from '../errors/repa-error.js';
import { citationSchema } from './citations.js';
import { idSchema, spaceRootSchema, timestampSchema } from './common.js';

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
  })
  .meta({
    id: 'HistoryItem',
    description: 'One public history item (spec R27).',
  });

export type { HistoryItem, SessionInfo } from './wire-types.generated.js';
