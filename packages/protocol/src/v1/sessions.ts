import { z } from 'zod';
import { type WireError, wireErrorSchema } from '../errors/repa-error.js';
import { idSchema, spaceRootSchema, timestampSchema } from './common.js';

/** A session of a space. */
export const sessionInfoSchema = z
  .looseObject({
    /** The session id (Pi's session id). */
    sessionId: idSchema.describe("The session id (Pi's session id)."),
    /** The space root (an absolute path). */
    space: spaceRootSchema.describe('The space root (an absolute path).'),
    /** Optional human title. */
    title: z.string().optional().describe('Optional human title.'),
    /** When the session was created. */
    createdAt: timestampSchema.describe('When the session was created.'),
    /** When the session last changed. */
    updatedAt: timestampSchema.optional().describe('When the session last changed.'),
    /**
     * Present when the session file is damaged (`session_damaged`): the session is listed but cannot
     * be read or continued; `details.quarantine` names the byte copy kept before anything else.
     */
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
/** A session of a space. */
export interface SessionInfo {
  /** The session id (Pi's session id). */
  sessionId: string;
  /** The space root (an absolute path). */
  space: string;
  /** Optional human title. */
  title?: string | undefined;
  /** When the session was created. */
  createdAt: string;
  /** When the session last changed. */
  updatedAt?: string | undefined;
  /**
   * Present when the session file is damaged (`session_damaged`): the session is listed but cannot
   * be read or continued; `details.quarantine` names the byte copy kept before anything else.
   */
  damaged?: WireError | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/**
 * One public history item (spec R27): the real exchange, tool results, context snapshots and
 * summaries. Pi's system entries (prompt and tool configuration) are never projected here.
 */
export const historyItemSchema = z
  .looseObject({
    /** The Pi session entry id. */
    entryId: z.string().describe('The Pi session entry id.'),
    /** What the item is. */
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
    /** When the entry was written. */
    timestamp: timestampSchema.describe('When the entry was written.'),
    /** Text content. */
    text: z.string().describe('Text content.'),
    /** Tool name, for tool results and assistant tool calls. */
    toolName: z
      .string()
      .optional()
      .describe('Tool name, for tool results and assistant tool calls.'),
    /** Whether a tool result is an error. */
    isError: z.boolean().optional().describe('Whether a tool result is an error.'),
  })
  .meta({
    id: 'HistoryItem',
    description: 'One public history item (spec R27).',
  });
/** One public history item. */
export interface HistoryItem {
  /** The Pi session entry id. */
  entryId: string;
  /** What the item is. */
  kind:
    | 'user'
    | 'assistant'
    | 'tool-result'
    | 'context-snapshot'
    | 'file-change-notice'
    | 'compaction-summary'
    | 'branch-summary';
  /** When the entry was written. */
  timestamp: string;
  /** Text content. */
  text: string;
  /** Tool name, for tool results and assistant tool calls. */
  toolName?: string | undefined;
  /** Whether a tool result is an error. */
  isError?: boolean | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}
