import { z } from 'zod';
import { timestampSchema, versionSchema } from '../common.js';

/** How many days `study.status`'s calendar covers, today first. */
export const STUDY_CALENDAR_DAYS = 14;

const count = z.number().int().nonnegative();

/** Counts per grade, 1 Again … 4 Easy. */
export const studyGradeCountsSchema = z
  .looseObject({
    again: count.describe('Again (1).'),
    hard: count.describe('Hard (2).'),
    good: count.describe('Good (3).'),
    easy: count.describe('Easy (4).'),
  })
  .meta({ id: 'StudyGradeCounts', description: 'Counts per grade: Again, Hard, Good, Easy.' });

/** The progress of one source. */
export const studyProgressSchema = z
  .looseObject({
    source: z.string().describe('The cited document, or the note itself for cards citing nothing.'),
    version: versionSchema
      .nullable()
      .describe(
        'The version its cards were written from and its questions asked on (null: hand-written cards).',
      ),
    cards: count.describe('Cards.'),
    new: count.describe('Cards never reviewed.'),
    learning: count.describe('Cards in (re)learning.'),
    review: count.describe('Cards in review.'),
    due: count.describe('Cards due now (new ones included).'),
    recall: z
      .number()
      .nullable()
      .describe(
        'The mean probability of recalling its reviewed cards now (ts-fsrs `get_retrievability`; null: none reviewed).',
      ),
    ratings: studyGradeCountsSchema.describe(
      'The ratings of its cards that stand (undone ones not).',
    ),
    answers: z
      .looseObject({
        none: studyGradeCountsSchema.describe('Answered right at once, with no help.'),
        hint: studyGradeCountsSchema.describe('Answered on the second try, after a hint.'),
        passage: studyGradeCountsSchema.describe('Wrong twice: the passage was shown.'),
      })
      .describe(
        "Graded answers to questions on it, by the help given before the grade (an override counts as the learner's grade).",
      ),
    lastStudied: timestampSchema
      .nullable()
      .describe('Its latest rating, answer or override (null: never studied).'),
    sourceChanged: count.describe('Cards whose cited passage changed or is gone.'),
    questionsChanged: count.describe(
      'Answers to questions asked on a version that is not the document now (changed or gone).',
    ),
    calendar: z
      .array(count)
      .length(STUDY_CALENDAR_DAYS)
      .describe(
        "Reviewed cards due on each of the next 14 local days, today first (today's count holds the overdue ones); new cards are not scheduled.",
      ),
  })
  .meta({
    id: 'StudyProgress',
    description: 'The progress of one source and version (spec R112).',
  });

/** A graded answer whose source changed since its question was asked. */
export const studyChangedQuestionSchema = z
  .looseObject({
    id: z.string().describe("The answer's id in the study log."),
    question: z.string().describe('The question as the learner saw it.'),
    cite: z.string().describe('The passage it was asked on.'),
    source: z.string().describe('The cited document.'),
    version: versionSchema.describe('The version it was asked on.'),
    at: timestampSchema.describe('When it was answered.'),
  })
  .meta({
    id: 'StudyChangedQuestion',
    description: 'A graded answer whose source changed since its question was asked (spec R112).',
  });

/** One local day of the calendar. */
export const studyCalendarDaySchema = z
  .looseObject({
    date: z.string().describe('The local day (`YYYY-MM-DD`).'),
    due: count.describe('Reviewed cards of the sources given due that day.'),
  })
  .meta({ id: 'StudyCalendarDay', description: 'One local day of the calendar (spec R112).' });
