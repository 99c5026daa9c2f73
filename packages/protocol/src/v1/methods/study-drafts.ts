import { z } from 'zod';
import { citationSchema } from '../citations.js';
import { idSchema, versionSchema } from '../common.js';
import { saveReceiptSchema } from '../content.js';
import { method } from '../method.js';
import { runInfoSchema } from '../runs.js';
import { overridesParam, requestIdParam, resubmittedResult, spaceParam } from './params.js';

/** Why Repa dropped a card a draft run proposed. */
export const droppedCardReasonSchema = z
  .enum([
    'no_citation',
    'forged_quote',
    'not_verified',
    'outside_passage',
    'gives_away',
    'no_answer',
    'source_changed',
    'extra_card',
  ])
  .meta({
    id: 'DroppedCardReason',
    description:
      'Why a proposed card was dropped: `no_citation` (its Source cites nothing), `forged_quote` (the quoted words are not in the cited lines), `not_verified` (the run never read the cited lines, or they do not exist), `outside_passage` (it cites lines outside the passage asked for), `gives_away` (its front holds its answer), `no_answer` (it has no answer), `source_changed` (the cited document changed since the run read it) or `extra_card` (a redraft keeps one card, a quiz its count).',
  });

/** A card a draft run proposed whose citation verified: the learner accepts, edits or drops it. */
export const draftedCardSchema = z
  .looseObject({
    id: idSchema.describe(
      'The card id it is saved with (a redraft: the id of the card it replaces).',
    ),
    front: z.string().describe('The question, or a cloze text with its `==hidden==` words.'),
    back: z.string().describe('The answer; empty for a cloze card.'),
    cite: z
      .string()
      .describe('The cited passage in Repa form, kept in its card comment: `notes/x.md:12-14`.'),
    citation: citationSchema.describe("The card's citation as checked against what the run read."),
    version: versionSchema.describe('The version of the cited document the run read.'),
    quote: z.string().describe('The cited lines of that version, kept in its card comment.'),
  })
  .meta({ id: 'DraftedCard', description: 'A proposed card whose citation verified.' });

/** A card a draft run proposed that Repa dropped, with the reason. */
export const droppedCardSchema = z
  .looseObject({
    index: z.number().int().positive().describe('Its place among the cards the answer wrote.'),
    front: z.string().describe('Its front as written.'),
    back: z.string().describe('Its back as written.'),
    reason: droppedCardReasonSchema.describe('Why it was dropped.'),
    explanation: z.string().describe('The reason in words, naming what failed.'),
    citation: citationSchema.optional().describe('Its citation as checked, when it had one.'),
  })
  .meta({ id: 'DroppedCard', description: 'A proposed card Repa dropped, with the reason.' });

/** The `study.*` methods of drafting cards from a passage (spec R105–R107). */
export const studyDraftMethods = {
  'study.draft': method({
    description:
      'Drafts study cards from a passage as a run (its input: a Repa-owned request naming the passage and the card format) and subscribes this connection to its events. With `card`, redrafts that card from the passage its comment cites, to replace it keeping its id. Read the proposals with `study.drafted` once the run succeeded.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        sessionId: idSchema.describe(
          'The session the draft run belongs to (a new one keeps it apart).',
        ),
        requestId: requestIdParam,
        passage: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe(
            'The passage: `notes/x.md`, `notes/x.md:12-18`, `book.pdf#p2` or `book.pdf#p2:3-9` (one of `passage` and `card`).',
          ),
        card: z
          .strictObject({
            id: idSchema.describe('The card to redraft.'),
            note: z.string().min(1).max(4096).describe('The note holding it.'),
          })
          .optional()
          .describe(
            'A card to redraft from the passage its comment cites (one of `passage` and `card`).',
          ),
        overrides: overridesParam,
      }),
    result: () =>
      z.looseObject({
        run: runInfoSchema.describe('The accepted (or original) draft run.'),
        resubmitted: resubmittedResult,
        passage: z.string().describe('The passage the run drafts from, as the request names it.'),
      }),
  }),
  'study.drafted': method({
    description:
      'The cards a succeeded draft run proposed: those whose citation verified against what the run read, inside the passage asked for, whose front keeps its answer hidden (`cards`), and every other with its reason (`dropped`). `invalid_request` for a run that is no draft or did not succeed; `busy` while it runs.',
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The draft run.'),
      }),
    result: () =>
      z.looseObject({
        runId: idSchema.describe('The draft run.'),
        passage: z.string().describe('The passage asked for.'),
        note: z
          .string()
          .describe(
            'Where accepted cards go by default: `cards/<source name>.md`, or the note of the redrafted card.',
          ),
        redraft: idSchema.optional().describe('For a redraft: the id of the card it replaces.'),
        cards: z.array(draftedCardSchema).describe('The cards kept, in the order written.'),
        dropped: z.array(droppedCardSchema).describe('The cards dropped, each with its reason.'),
      }),
  }),
  'study.accept': method({
    description:
      "Saves the chosen cards of a draft run (with the learner's edits), or questions of a quiz run made cards (a cloze as written, else the question and its passage), into a note as one save of that run (`<runId>-<n>`), so `run.rewind` of the run removes them: appended to the note (created when missing), or in place of the card with the same id (a redraft). Each card is its Obsidian-syntax lines followed by its `<!--repa:card …-->` comment.",
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The draft run, or the quiz run.'),
        cards: z
          .array(
            z.strictObject({
              id: idSchema.describe(
                'A card `study.drafted` kept, or a question `study.quizzed` kept.',
              ),
              front: z
                .string()
                .max(10_000)
                .optional()
                .describe("The learner's edited front (default: as drafted)."),
              back: z
                .string()
                .max(10_000)
                .optional()
                .describe(
                  "The learner's edited back (default: as drafted; empty for a cloze card).",
                ),
            }),
          )
          .min(1)
          .max(100)
          .describe('The cards to save, in the order given.'),
        note: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe(
            'The Markdown note to save them in, relative to the space root (default: `study.drafted`’s `note`).',
          ),
      }),
    result: () =>
      z.looseObject({
        runId: idSchema.describe('The draft run the save belongs to.'),
        note: z.string().describe('The note written.'),
        cards: z.array(idSchema).describe('The ids of the cards saved.'),
        replaced: z.array(idSchema).describe('Of those, the ids whose earlier card was replaced.'),
        receipts: z.array(saveReceiptSchema).describe("The save's receipt."),
      }),
  }),
} as const;
