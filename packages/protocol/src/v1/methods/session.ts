import { z } from 'zod';
import { idSchema } from '../common.js';
import { method } from '../method.js';
import { runInfoSchema } from '../runs.js';
import { historyItemSchema, sessionInfoSchema } from '../sessions.js';
import { sessionParams, spaceParam } from './params.js';

/** The `session.run` notification's params: a run of a session the connection follows. */
export const sessionRunNotificationSchema = z.object({
  ...sessionParams,
  run: runInfoSchema.describe(
    'The run as the ledger has it now (a queued one with its `queuePosition`).',
  ),
});

/** The `session.*` methods. */
export const sessionMethods = {
  'session.create': method({
    description: 'Creates a session in a space.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        title: z.string().max(500).optional().describe('Optional human title.'),
      }),
    result: () =>
      z.looseObject({
        session: sessionInfoSchema.describe('The new session.'),
      }),
  }),
  'session.list': method({
    description:
      'Lists the sessions of a space, the most recently changed first; damaged ones carry `damaged`.',
    params: () =>
      z.strictObject({
        space: spaceParam,
      }),
    result: () =>
      z.looseObject({
        sessions: z
          .array(sessionInfoSchema)
          .describe('The sessions of the space, the most recently changed first.'),
      }),
  }),
  'session.resolve': method({
    description:
      'The session a learner named, by the one rule every client uses: `latest` (the most recently changed of the sessions the space shows), a session id, or the first characters of one. `not_found` when none fits (or the space has no sessions, for `latest`); `invalid_request` with `details.candidates` (at most 5 ids) when several sessions start with it.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        session: idSchema.describe(
          '`latest`, a session id, or the first characters of one, as the learner typed it.',
        ),
      }),
    result: () =>
      z.looseObject({
        session: sessionInfoSchema.describe('The session it names.'),
      }),
  }),
  'session.history': method({
    description:
      'The public history of a session (spec R27), whole or in parts: `limit` takes the last items (before `before`), and `earlier` says more precede them.',
    params: () =>
      z.strictObject({
        ...sessionParams,
        limit: z
          .number()
          .int()
          .positive()
          .max(100_000)
          .optional()
          .describe('Only the last this many items (default: all).'),
        before: z
          .string()
          .min(1)
          .optional()
          .describe(
            'Only the items before this entry id (a part read earlier begins with it); `not_found` when the branch has no such entry.',
          ),
      }),
    result: () =>
      z.looseObject({
        items: z.array(historyItemSchema).describe("The session's public history, oldest first."),
        earlier: z
          .boolean()
          .optional()
          .describe('True when items precede the first one returned (ask again with `before`).'),
      }),
  }),
  'session.subscribe': method({
    description:
      "Follows a session's runs, whoever submitted them (another client, another tab, the queue): this connection gets a `session.run` notification when one of its runs is accepted or moves in the queue, and that run's `run.event` notifications, until the connection closes or `session.unsubscribe`.",
    params: () =>
      z.strictObject({
        ...sessionParams,
      }),
    result: () =>
      z.looseObject({
        runs: z
          .array(runInfoSchema)
          .describe(
            "The session's runs accepted or running now, oldest first (queued ones with their `queuePosition`); this connection gets their events from now on.",
          ),
      }),
  }),
  'session.unsubscribe': method({
    description:
      "Stops following a session's new runs (`session.subscribe`); the runs already followed send their events to their end.",
    params: () =>
      z.strictObject({
        ...sessionParams,
      }),
    result: () =>
      z.looseObject({
        unsubscribed: z
          .boolean()
          .describe('False when this connection did not follow the session.'),
      }),
  }),
  'session.rename': method({
    description: 'Gives a session a new title.',
    params: () =>
      z.strictObject({
        ...sessionParams,
        title: z.string().min(1).max(500).describe('The new title.'),
      }),
    result: () =>
      z.looseObject({
        session: sessionInfoSchema.describe('The renamed session.'),
      }),
  }),
  'session.compact': method({
    description:
      "Compacts a session's history now through Pi's compaction: a summary of its older part stands for it in what the model sees from then on (the raw history keeps everything). `busy` while one of its runs is accepted or running; `invalid_request` when there is too little to compact.",
    params: () =>
      z.strictObject({
        ...sessionParams,
        instructions: z
          .string()
          .min(1)
          .max(4000)
          .optional()
          .describe(
            'Instructions for this summary, e.g. `keep the open questions`; they follow the standing `compaction.instructions`.',
          ),
      }),
    result: () =>
      z.looseObject({
        summary: z.string().describe('The summary written.'),
        tokensBefore: z
          .number()
          .nonnegative()
          .describe(
            "What the model was sent before, in tokens: Pi's chars/4 estimate of the session's projection (an estimate, spec R47).",
          ),
        tokensAfter: z
          .number()
          .nonnegative()
          .optional()
          .describe('The same estimate after compacting, on the same basis as `tokensBefore`.'),
        instructions: z
          .string()
          .optional()
          .describe('The instructions the summary was asked with (standing and given), if any.'),
        instructionsNotApplied: z
          .string()
          .optional()
          .describe(
            'Instructions given that Pi did not apply: it summarised only the start of the current turn, which it does with its own prompt.',
          ),
      }),
  }),
  'session.export': method({
    description:
      "A session exported for reading or keeping: `markdown` (its history with tool calls, tool results with the receipts of saves, learning-context snapshots, notices, summaries and each run's record), `html` (Pi's own HTML export) or `jsonl` (Pi's session file as it is). Long exports come in parts: ask again from `nextOffset`.",
    params: () =>
      z.strictObject({
        ...sessionParams,
        format: z.enum(['markdown', 'html', 'jsonl']).describe('The export format.'),
        offset: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe('The character the part starts at (default 0).'),
      }),
    result: () =>
      z.looseObject({
        content: z.string().describe('This part of the export.'),
        totalChars: z.number().int().nonnegative().describe('The length of the whole export.'),
        nextOffset: z
          .number()
          .int()
          .positive()
          .optional()
          .describe('Where the next part starts; absent on the last part.'),
      }),
  }),
  'session.delete': method({
    description:
      "Deletes a session's file and removes its runs from the run ledger (their stored images too, when no other run uses them); `busy` while one of its runs is accepted or running.",
    params: () =>
      z.strictObject({
        ...sessionParams,
      }),
    result: () =>
      z.looseObject({
        sessionId: idSchema.describe("The deleted session's id."),
        runsRemoved: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe('How many runs of the session were removed from the run ledger.'),
      }),
  }),
} as const;
