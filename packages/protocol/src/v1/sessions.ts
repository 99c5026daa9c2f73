import { z } from 'zod';
import { wireErrorSchema } from '../errors/repa-error.js';
import { idSchema, spaceRootSchema, timestampSchema } from './common.js';

/** A session of a space. */
export const sessionInfoSchema = z.looseObject({
  /** The session id (Pi's session id). */
  sessionId: idSchema,
  /** The space root. */
  space: spaceRootSchema,
  /** Optional human title. */
  title: z.string().optional(),
  /** When the session was created. */
  createdAt: timestampSchema,
  /** When the session last changed. */
  updatedAt: timestampSchema.optional(),
  /**
   * Present when the session file is damaged (`session_damaged`): the session is listed but cannot
   * be read or continued; `details.quarantine` names the byte copy kept before anything else.
   */
  damaged: wireErrorSchema.optional(),
});
/** A session of a space. */
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/**
 * One public history item (spec R27): the real exchange, tool results, context snapshots and
 * summaries. Pi's system entries (prompt and tool configuration) are never projected here.
 */
export const historyItemSchema = z.looseObject({
  /** The Pi session entry id. */
  entryId: z.string(),
  /** What the item is. */
  kind: z.enum([
    'user',
    'assistant',
    'tool-result',
    'context-snapshot',
    'file-change-notice',
    'compaction-summary',
    'branch-summary',
  ]),
  /** When the entry was written. */
  timestamp: timestampSchema,
  /** Text content. */
  text: z.string(),
  /** Tool name, for tool results and assistant tool calls. */
  toolName: z.string().optional(),
  /** Whether a tool result is an error. */
  isError: z.boolean().optional(),
});
/** One public history item. */
export type HistoryItem = z.infer<typeof historyItemSchema>;
