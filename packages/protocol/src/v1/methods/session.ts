import { z } from 'zod';
import { idSchema, spaceRootSchema } from '../common.js';
import { historyItemSchema, sessionInfoSchema } from '../sessions.js';

/** The `session.*` methods. */
export const sessionMethods = {
  'session.create': {
    description: 'Creates a session in a space.',
    params: z.strictObject({
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      title: z.string().max(500).optional().describe('Optional human title.'),
    }),
    result: z.looseObject({
      session: sessionInfoSchema.describe('The new session.'),
    }),
  },
  'session.list': {
    description: 'Lists the sessions of a space, newest first; damaged ones carry `damaged`.',
    params: z.strictObject({
      space: spaceRootSchema.describe('The space root (an absolute path).'),
    }),
    result: z.looseObject({
      sessions: z.array(sessionInfoSchema).describe('The sessions of the space, newest first.'),
    }),
  },
  'session.history': {
    description: 'The public history of a session (spec R27).',
    params: z.strictObject({
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      sessionId: idSchema.describe('The session.'),
    }),
    result: z.looseObject({
      items: z.array(historyItemSchema).describe("The session's public history, oldest first."),
    }),
  },
  'session.rename': {
    description: 'Gives a session a new title.',
    params: z.strictObject({
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      sessionId: idSchema.describe('The session.'),
      title: z.string().min(1).max(500).describe('The new title.'),
    }),
    result: z.looseObject({
      session: sessionInfoSchema.describe('The renamed session.'),
    }),
  },
  'session.compact': {
    description:
      "Compacts a session's history now through Pi's compaction: a summary of its older part stands for it in what the model sees from then on (the raw history keeps everything). `busy` while one of its runs is accepted or running; `invalid_request` when there is too little to compact.",
    params: z.strictObject({
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      sessionId: idSchema.describe('The session.'),
      instructions: z
        .string()
        .min(1)
        .max(4000)
        .optional()
        .describe(
          'Instructions for this summary, e.g. `keep the open questions`; they follow the standing `compaction.instructions`.',
        ),
    }),
    result: z.looseObject({
      summary: z.string().describe('The summary written.'),
      tokensBefore: z
        .number()
        .nonnegative()
        .describe("Pi's estimate of the context before, in tokens (an estimate, spec R47)."),
      tokensAfter: z
        .number()
        .nonnegative()
        .optional()
        .describe("Pi's estimate of the context after, in tokens (an estimate, spec R47)."),
      instructions: z
        .string()
        .optional()
        .describe('The instructions the summary was asked with (standing and given), if any.'),
    }),
  },
  'session.export': {
    description:
      "A session exported for reading or keeping: `markdown` (its history with tool calls, tool results with the receipts of saves, learning-context snapshots, notices, summaries and each run's record), `html` (Pi's own HTML export) or `jsonl` (Pi's session file as it is). Long exports come in parts: ask again from `nextOffset`.",
    params: z.strictObject({
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      sessionId: idSchema.describe('The session.'),
      format: z.enum(['markdown', 'html', 'jsonl']).describe('The export format.'),
      offset: z
        .number()
        .int()
        .nonnegative()
        .optional()
        .describe('The character the part starts at (default 0).'),
    }),
    result: z.looseObject({
      content: z.string().describe('This part of the export.'),
      totalChars: z.number().int().nonnegative().describe('The length of the whole export.'),
      nextOffset: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('Where the next part starts; absent on the last part.'),
    }),
  },
  'session.delete': {
    description:
      "Deletes a session's file and removes its runs from the run ledger (their stored images too, when no other run uses them); `busy` while one of its runs is accepted or running.",
    params: z.strictObject({
      space: spaceRootSchema.describe('The space root (an absolute path).'),
      sessionId: idSchema.describe('The session.'),
    }),
    result: z.looseObject({
      sessionId: idSchema.describe("The deleted session's id."),
      runsRemoved: z
        .number()
        .int()
        .nonnegative()
        .optional()
        .describe('How many runs of the session were removed from the run ledger.'),
    }),
  },
} as const;
