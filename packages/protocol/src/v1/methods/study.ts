import { z } from 'zod';
import { timestampSchema } from '../common.js';
import { method } from '../method.js';
import { spaceParam } from './params.js';
import {
  STUDY_CALENDAR_DAYS,
  studyCalendarDaySchema,
  studyChangedQuestionSchema,
  studyProgressSchema,
} from './study-status.js';

const cardIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{3,63}$/u)
  .describe("A card's id (from its Repa comment, or derived from its note and front).");

const deckSchema = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe('Only the cards of a folder (`notes/bio`) or of notes with a tag (`#bio`).');

const nowSchema = timestampSchema
  .optional()
  .describe(
    "The time to compute at (default: the daemon's clock): for tests and tools that replay reviews.",
  );

/** A card's FSRS state (ts-fsrs's `Card`). */
export const studyCardStateSchema = z
  .looseObject({
    state: z
      .enum(['new', 'learning', 'review', 'relearning'])
      .describe('Where the card is in FSRS.'),
    due: timestampSchema.describe('When it is due.'),
    stability: z.number().describe('FSRS stability (days).'),
    difficulty: z.number().describe('FSRS difficulty (1–10).'),
    scheduledDays: z.number().describe('The interval it was given, in days.'),
    learningSteps: z.number().int().describe('The learning step it is at.'),
    reps: z.number().int().nonnegative().describe('Times it was reviewed.'),
    lapses: z.number().int().nonnegative().describe('Times it was forgotten.'),
    lastReview: timestampSchema.optional().describe('When it was last reviewed.'),
  })
  .meta({ id: 'StudyCardState', description: "A card's FSRS state (spec R101, R102)." });

const sourceSchema = z
  .looseObject({
    status: z
      .enum(['none', 'ok', 'changed'])
      .describe(
        '`none`: the card cites no passage; `ok`: the cited lines still hold its quote; `changed`: they no longer do, or the document is gone.',
      ),
    cite: z
      .string()
      .optional()
      .describe('The cited passage (`notes/x.md:12-18`, `book.pdf#p4:3-9`).'),
    quote: z.string().optional().describe('With `changed`: the cited lines as they were.'),
    lines: z
      .string()
      .nullable()
      .optional()
      .describe('With `changed`: the cited lines now (null: the document or page is gone).'),
  })
  .describe("Whether the card's source passage changed since it was written (spec R103).");

/** A study card of a note. */
export const studyCardSchema = z
  .looseObject({
    id: cardIdSchema,
    note: z.string().describe('The note holding it (path relative to the space root).'),
    line: z.number().int().positive().describe('Its first line in the note.'),
    kind: z
      .enum(['basic', 'reversed', 'multiline', 'multiline-reversed', 'cloze'])
      .describe('How it is written (`front::back`, `a:::b`, `?`, `??`, `==cloze==`).'),
    front: z.string().describe('What is asked (a cloze: its deletion as `[...]`).'),
    back: z.string().describe('The answer.'),
    tags: z.array(z.string()).describe("The note's tags, without `#`."),
    source: sourceSchema,
    fsrs: studyCardStateSchema.describe('Its FSRS state now (a new card: as of the call).'),
  })
  .meta({ id: 'StudyCard', description: 'A study card of a note (spec R100).' });

const nextSchema = z
  .looseObject({
    due: timestampSchema.describe('When it would be due next.'),
    scheduledDays: z.number().describe('The interval, in days (0 within the day).'),
  })
  .describe('What one rating would do.');

/** A due card with what each rating would do. */
export const studyDueCardSchema = studyCardSchema
  .extend({
    next: z
      .looseObject({ again: nextSchema, hard: nextSchema, good: nextSchema, easy: nextSchema })
      .describe('What each rating would do (ts-fsrs `repeat`).'),
  })
  .meta({
    id: 'StudyDueCard',
    description: 'A due card with what each rating would do (spec R102).',
  });

/** The `study.*` methods: cards in the space's notes, scheduled by FSRS (spec R100–R104). */
export const studyMethods = {
  'study.due': method({
    description:
      "The cards due now (new ones included), learning cards first, then reviews by due time, then new cards in note order; each with its source's status and what each rating would do.",
    params: () =>
      z.strictObject({
        space: spaceParam,
        deck: deckSchema,
        limit: z
          .number()
          .int()
          .positive()
          .max(10_000)
          .optional()
          .describe('The most cards to give (default 100).'),
        now: nowSchema,
      }),
    result: () =>
      z.looseObject({
        cards: z.array(studyDueCardSchema).describe('The due cards given.'),
        total: z.number().int().nonnegative().describe('How many cards are due in all.'),
      }),
  }),
  'study.rate': method({
    description:
      'Rates a card (1 Again, 2 Hard, 3 Good, 4 Easy): one line appended to the review log and fsynced before the answer; returns its new state.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        card: cardIdSchema,
        rating: z.number().int().min(1).max(4).describe('1 Again, 2 Hard, 3 Good, 4 Easy.'),
        durationMs: z
          .number()
          .int()
          .nonnegative()
          .max(86_400_000)
          .optional()
          .describe('How long the review took, in milliseconds.'),
        mode: z
          .enum(['flip', 'typed', 'quiz', 'tutor'])
          .optional()
          .describe('How the card was reviewed (default `flip`).'),
        now: nowSchema,
      }),
    result: () =>
      z.looseObject({
        card: studyCardSchema.describe('The card with its new state.'),
        reviewedAt: timestampSchema.describe('The time the rating was recorded at.'),
      }),
  }),
  'study.undo': method({
    description:
      'Takes back the last rating that stands (an undo line in the review log; nothing is erased).',
    params: () =>
      z.strictObject({
        space: spaceParam,
      }),
    result: () =>
      z.looseObject({
        undone: z
          .looseObject({
            card: z.string().describe('The card whose rating was taken back.'),
            rating: z.number().int().min(1).max(4).describe('The rating taken back.'),
            reviewedAt: timestampSchema.describe('When it had been given.'),
          })
          .nullable()
          .describe('The rating taken back; null when there was none.'),
        fsrs: studyCardStateSchema
          .nullable()
          .describe("The card's state now (null: it is new again, or nothing was undone)."),
      }),
  }),
  'study.status': method({
    description:
      'Progress per source document and version: new, learning, review and due cards, recall probability now, ratings, graded answers by help given, last studied, cards and questions whose source changed, and the reviews due on each of the next 14 local days.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        source: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe('Only this source (a cited document, or a note for its hand-written cards).'),
        deck: deckSchema,
        timeZone: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe(
            "The IANA time zone whose days the calendar counts (`Europe/Berlin`; default: the daemon's).",
          ),
        now: nowSchema,
      }),
    result: () =>
      z.looseObject({
        at: timestampSchema.describe('The time computed at.'),
        sources: z.array(studyProgressSchema).describe('One entry per source and version.'),
        calendar: z
          .array(studyCalendarDaySchema)
          .length(STUDY_CALENDAR_DAYS)
          .describe("The next 14 local days, today first, with the sources' counts added up."),
        changed: z
          .array(studyCardSchema)
          .describe('The cards whose source changed, with the old and new lines.'),
        changedQuestions: z
          .array(studyChangedQuestionSchema)
          .describe(
            'The answers whose question was asked on a version the document no longer has.',
          ),
      }),
  }),
  'study.export': method({
    description:
      "The cards as Anki's text import (tab-separated, HTML, the card id as each note's GUID: importing a later export updates instead of duplicating).",
    params: () =>
      z.strictObject({
        space: spaceParam,
        deck: deckSchema,
      }),
    result: () =>
      z.looseObject({
        format: z.literal('anki-text').describe("Anki's text import with file headers."),
        text: z.string().describe('The file to import.'),
        cards: z.number().int().nonnegative().describe('How many cards it holds.'),
      }),
  }),
} as const;
