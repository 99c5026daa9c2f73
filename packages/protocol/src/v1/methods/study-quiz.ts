import { z } from 'zod';
import { citationSchema } from '../citations.js';
import { idSchema, versionSchema } from '../common.js';
import { method } from '../method.js';
import { runInfoSchema } from '../runs.js';
import { overridesParam, requestIdParam, resubmittedResult, spaceParam } from './params.js';
import { droppedCardSchema } from './study-drafts.js';

const gradeSchema = z.number().int().min(1).max(4);

/** A quiz question whose citation verified. */
export const quizQuestionSchema = z
  .looseObject({
    id: idSchema.describe('The question id (the id of the card it becomes).'),
    question: z
      .string()
      .describe('The question as the learner sees it (a cloze: its hidden words as `_____`).'),
    kind: z.enum(['question', 'cloze']).describe('A question, or a sentence with words hidden.'),
    cite: z.string().describe('The cited passage in Repa form: `notes/x.md:12-14`.'),
    citation: citationSchema.describe(
      "The question's citation as checked against the run's reads.",
    ),
    version: versionSchema.describe('The version of the cited document the run read.'),
  })
  .meta({
    id: 'QuizQuestion',
    description: 'A quiz question whose citation verified (spec R109).',
  });

/** The learner's answer to a question (a quiz's or a tutor's). */
const answerSchema = () =>
  z.string().max(8000).describe("The learner's answer, in their own words.");

/** The params of a call that starts a grade run (`study.answer`, `study.check`) after the answer. */
const gradeRunFields = () => ({
  after: idSchema
    .optional()
    .describe('A second try: the grade run of the first try (it graded Again or Hard).'),
  requestId: requestIdParam,
  overrides: overridesParam,
});

/** The result of a call that starts a grade run. */
const gradeRunResult = () =>
  z.looseObject({
    run: runInfoSchema.describe('The accepted (or original) grade run.'),
    resubmitted: resubmittedResult,
  });

/** The `study.*` methods of quizzes and tutor checks graded against the passage (spec R109–R111, R114). */
export const studyQuizMethods = {
  'study.quiz': method({
    description:
      'Starts a quiz on a passage as a run (its input: a Repa-owned request naming the passage, the count and the question format) and subscribes this connection to its events. Read the questions with `study.quizzed` once the run succeeded; its run id is the quiz id.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        sessionId: idSchema.describe('The session the quiz and its grade runs belong to.'),
        requestId: requestIdParam,
        passage: z
          .string()
          .min(1)
          .max(4096)
          .describe(
            'The passage: `notes/x.md`, `notes/x.md:12-18`, `book.pdf#p2`, `book.pdf#p2:3-9`.',
          ),
        count: z
          .number()
          .int()
          .min(1)
          .max(10)
          .optional()
          .describe('How many questions (default 3).'),
        overrides: overridesParam,
      }),
    result: () =>
      z.looseObject({
        run: runInfoSchema.describe('The accepted (or original) quiz run.'),
        resubmitted: resubmittedResult,
        passage: z.string().describe('The passage the quiz asks about.'),
      }),
  }),
  'study.quizzed': method({
    description:
      'The questions a succeeded quiz run wrote: those whose citation verified against what the run read, inside the passage asked for (a cloze hiding its words), the first `count` of them (`questions`), and every other with its reason (`dropped`). `invalid_request` for a run that is no quiz or did not succeed; `busy` while it runs.',
    params: () => z.strictObject({ runId: idSchema.describe('The quiz run.') }),
    result: () =>
      z.looseObject({
        runId: idSchema.describe('The quiz run (the quiz id).'),
        passage: z.string().describe('The passage asked for.'),
        note: z
          .string()
          .describe('Where a question made a card goes by default: `cards/<source name>.md`.'),
        questions: z
          .array(quizQuestionSchema)
          .describe('The questions kept, in the order written.'),
        dropped: z
          .array(droppedCardSchema)
          .describe('The questions dropped, each with its reason.'),
      }),
  }),
  'study.answer': method({
    description:
      "Grades the learner's answer to a quiz question as a run in the quiz's session, with no editing tools (its request holds the cited passage, the question and the answer; the model grades against the passage only). With `after`, it is the second try after that first try's grade run graded Again or Hard. Read the grade with `study.graded`.",
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The quiz run.'),
        question: idSchema.describe('The question id (`study.quizzed`).'),
        answer: answerSchema(),
        ...gradeRunFields(),
      }),
    result: gradeRunResult,
  }),
  'study.check': method({
    description:
      "Checks the learner's answer to a tutor's reply against a passage the reply cites (spec R114): a grade run like `study.answer`'s, in a session of its own (a second try in the first try's), offered no editing tools; its request holds the cited lines of the version the tutor run read, the learner's own request to the tutor as the question, and the answer. `invalid_request` when the run is not in tutor mode, when the cited passage is not verified or changed since; `busy` while the tutor run runs. Read the grade with `study.graded`.",
    params: () =>
      z.strictObject({
        runId: idSchema.describe(
          'The tutor run (`study.mode` `tutor`) whose reply the answer answers.',
        ),
        answer: answerSchema(),
        citation: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            "The number of the reply's citation to check against (default: its first verified one).",
          ),
        ...gradeRunFields(),
      }),
    result: gradeRunResult,
  }),
  'study.graded': method({
    description:
      'The grade of a succeeded grade run (of a quiz answer, `study.answer`, or of a tutor check, `study.check`): Again/Hard/Good/Easy against the cited passage with the quote of what was missing (kept only when it is words of the passage). A first try graded Again or Hard is not final: it gives a hint for a second try. A final grade is recorded once in the study log as an `answer` entry (origin `quiz`, or `tutor` with `tutor` set; help `none`, `hint`, or `passage` when the second try was wrong too) and comes with the passage.',
    params: () => z.strictObject({ runId: idSchema.describe('The grade run.') }),
    result: () =>
      z.looseObject({
        runId: idSchema.describe('The grade run.'),
        quiz: idSchema.optional().describe('The quiz run (absent for a tutor check).'),
        question: idSchema.optional().describe('The question id (absent for a tutor check).'),
        tutor: idSchema
          .optional()
          .describe('A tutor check: the tutor run whose reply was checked (the log entry’s set).'),
        citation: z
          .number()
          .int()
          .optional()
          .describe("A tutor check: the number of the reply's citation graded against."),
        attempt: z.number().int().min(1).max(2).describe('1: the first try; 2: the second.'),
        grade: gradeSchema.describe('1 Again, 2 Hard, 3 Good, 4 Easy.'),
        missing: z
          .string()
          .describe("The passage's words the answer missed, quoted (empty: nothing missing)."),
        droppedMissing: z
          .string()
          .optional()
          .describe('A missing quote the grader gave that is not words of the passage (not kept).'),
        grader: z
          .string()
          .describe("Who graded: the model's `provider/id`, or `passage-words` offline."),
        final: z.boolean().describe('Whether this grade stands (false: a hint and a second try).'),
        hint: z
          .string()
          .nullable()
          .describe('For a second try: a hint that does not give the answer.'),
        answer: z
          .looseObject({
            id: idSchema.describe('The answer entry (what `study.override` names).'),
            help: z
              .enum(['none', 'hint', 'passage'])
              .describe('How much help came before the grade.'),
            answers: z.array(z.string()).describe("The learner's answers, first try first."),
            version: versionSchema.describe('The version of the passage graded against.'),
          })
          .nullable()
          .describe('With a final grade: the entry recorded in the study log.'),
        passage: z
          .looseObject({
            cite: z.string().describe('The cited passage.'),
            quote: z.string().describe('Its lines.'),
          })
          .nullable()
          .describe('With a final grade: the passage graded against.'),
      }),
  }),
  'study.override': method({
    description:
      "Records the learner's own grade for an answer beside the one given (an `override` entry in the study log; the given grade stays).",
    params: () =>
      z.strictObject({
        space: spaceParam,
        answer: idSchema.describe('The answer entry (`study.graded`).'),
        grade: gradeSchema.describe("The learner's grade: 1 Again, 2 Hard, 3 Good, 4 Easy."),
      }),
    result: () =>
      z.looseObject({
        id: idSchema.describe('The override entry.'),
        answer: idSchema.describe('The answer it overrides.'),
        given: gradeSchema.describe('The grade given, kept beside it.'),
        grade: gradeSchema.describe("The learner's grade."),
      }),
  }),
} as const;
