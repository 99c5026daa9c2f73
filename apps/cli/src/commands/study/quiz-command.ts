import { randomUUID } from 'node:crypto';
import {
  type QuizQuestion,
  RATING_LABELS,
  type RepaClient,
  RepaError,
  type V1Result,
} from '@repa/protocol';
import { type CliContext, claimSpace, passagePathOf, spaceOf } from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { onTerminal } from '../../consent.js';
import { writeJson } from '../../format-table.js';
import { paint } from '../../style.js';
import { usageError } from '../../usage-error.js';
import { runOverridesOf } from '../runs/index.js';
import { describeDropped } from './draft-choices.js';
import {
  type Graded,
  gradeWithSecondTry,
  learnerLines,
  type NextLine,
  quietRun,
} from './grade-lines.js';
import { ratingOf } from './review-commands.js';

/** One answer to a quiz question graded: a grade run, then its grade. */
async function grade(
  client: RepaClient,
  params: { runId: string; question: string; answer: string; after?: string },
  overrides: ReturnType<typeof runOverridesOf>,
): Promise<Graded> {
  const run = await quietRun(
    client,
    () =>
      client.request('study.answer', {
        ...params,
        requestId: randomUUID(),
        ...(overrides ? { overrides } : {}),
      }),
    'start the quiz again',
  );
  return client.request('study.graded', { runId: run.runId });
}

/**
 * Asks each question and grades the answers: a wrong first answer gets the hint and a second
 * try; after the final grade the passage. On a terminal, `o` records the learner's own grade and
 * `c` makes the question a card. Resolves with the final grades.
 */
async function askQuestions(
  context: CliContext,
  client: RepaClient,
  quiz: V1Result<'study.quizzed'> & { space: string },
  next: NextLine,
  overrides: ReturnType<typeof runOverridesOf>,
): Promise<Graded[]> {
  const out = context.stdout;
  const say = (...lines: string[]) => {
    if (!context.json) out.write(`${lines.join('\n')}\n`);
  };
  const terminal = onTerminal(context) && !context.json;
  const finals: Graded[] = [];
  for (const [index, question] of quiz.questions.entries()) {
    say(
      '',
      paint(out, 'bold', `Question ${index + 1} of ${quiz.questions.length}`) +
        paint(out, 'dim', ` · ${question.cite}`),
      `  ${question.question}`,
    );
    const first = await next('Your answer: ');
    if (first === undefined) break;
    if (!terminal) say(`A: ${first}`);
    const graded = await gradeWithSecondTry(
      context,
      first,
      (answer, after) =>
        grade(
          client,
          { runId: quiz.runId, question: question.id, answer, ...(after ? { after } : {}) },
          overrides,
        ),
      next,
      !terminal,
    );
    finals.push(graded);
    if (terminal) await afterGrade(context, client, quiz, question, graded, next);
  }
  return finals;
}

/** On a terminal after a final grade: Enter goes on, `o` overrides the grade, `c` makes a card. */
async function afterGrade(
  context: CliContext,
  client: RepaClient,
  quiz: V1Result<'study.quizzed'> & { space: string },
  question: QuizQuestion,
  graded: Graded,
  next: NextLine,
): Promise<void> {
  const out = context.stdout;
  let carded = false;
  for (;;) {
    const choice = (await next('Enter: next · o: your own grade · c: make it a card > '))?.trim();
    if (choice === undefined || choice === '') return;
    if (choice === 'o' && graded.answer) {
      const written = await next('Your grade (1 Again, 2 Hard, 3 Good, 4 Easy): ');
      const own = ratingOf(written ?? '');
      if (own === 0) {
        out.write('Not a grade: type 1, 2, 3 or 4 (or again, hard, good, easy).\n');
        continue;
      }
      const done = await client.request('study.override', {
        space: quiz.space,
        answer: graded.answer.id,
        grade: own,
      });
      out.write(
        `Recorded your grade ${RATING_LABELS[done.grade - 1]} beside ${RATING_LABELS[done.given - 1]}.\n`,
      );
    } else if (choice === 'c' && !carded) {
      const saved = await client.request('study.accept', {
        runId: quiz.runId,
        cards: [{ id: question.id }],
      });
      carded = true;
      out.write(
        `[saved] ${saved.note}: card ${question.id} (undo with repa runs rewind ${quiz.runId})\n`,
      );
    }
  }
}

/** `repa study quiz`. */
export const studyQuiz = defineCommand({
  words: ['study', 'quiz'],
  summary: 'quiz yourself on a passage, graded against what it says',
  usage: 'study quiz [--space DIR] [--count N] [--model ID] FILE[:LINES|#pPAGE]',
  help: `Asks the model for questions on a passage (notes/x.md, notes/x.md:12-18, book.pdf#p2,
book.pdf#p2:3-9), as a run in a new session; Repa keeps only questions whose citation verifies
against what the run read, inside the passage (the others are listed with their reason). You
answer each in your own words; the answer is graded against the lines the question cites, not
against an answer the model wrote: Again, Hard, Good or Easy, with the passage's words you missed.
A first answer graded Again or Hard gets a hint and a second try; after the grade the passage is
shown. Every final grade is recorded in the study log (.repa/study/reviews.log) with the help you
had: none, a hint, or the passage. repa-offline asks cloze questions and grades by the passage's
words, with no model.

On a terminal, after each grade: Enter goes on, o records your own grade beside the one given,
c makes the question a card (in cards/<source name>.md, as repa study draft saves cards).
Off a terminal, the answers are read from standard input, one line each (a second try is the
next line), so a quiz can be scripted; input that ends ends the quiz.

Options:
  --space DIR      the space folder (default: the space you are in)
  --count N        how many questions (1–10, default 3)
  --model ID       provider/id of the model for this quiz and its grades (see repa models)

Exit code: 0 the quiz ran, 1 a run failed, 2 usage error.
With --json, one JSON object per line: {"kind":"quizzed"} (questions kept and dropped), then
{"kind":"graded"} per grade (runId, question, attempt, grade, missing, final, hint, answer, passage).
repa study override ANSWER GRADE records your own grade later.`,
  options: {
    space: { type: 'string' },
    count: { type: 'string' },
    model: { type: 'string' },
  },
  positionals: [1, 1],
  async run(context, args, values) {
    const [typed = ''] = args;
    const count = values.count === undefined ? 3 : Number(values.count);
    if (!(Number.isInteger(count) && count >= 1 && count <= 10)) {
      throw usageError(
        `--count must be a whole number from 1 to 10, not '${values.count}'.`,
        `Pass e.g. --count 3: repa study quiz ${typed} --count 3`,
      );
    }
    const overrides = runOverridesOf({ model: values.model });
    const space = spaceOf(context, values.space);
    const passage = passagePathOf(context, space, typed);
    const client = await context.client();
    await claimSpace(context, client, space, values.space !== undefined, true);
    const { session } = await client.request('session.create', {
      space,
      title: `study quiz ${passage}`,
    });
    if (!context.json)
      context.stdout.write(
        `[study] writing ${count} question${count === 1 ? '' : 's'} on ${passage} …\n`,
      );
    const run = await quietRun(
      client,
      () =>
        client.request('study.quiz', {
          space,
          sessionId: session.sessionId,
          requestId: randomUUID(),
          passage,
          count,
          ...(overrides ? { overrides } : {}),
        }),
      'start the quiz again',
    );
    const quiz = await client.request('study.quizzed', { runId: run.runId });
    if (context.json) writeJson(context.stdout, { kind: 'quizzed', ...quiz });
    else {
      const { questions, dropped } = quiz;
      context.stdout.write(
        `[study] quiz ${quiz.runId}: ${questions.length} question${questions.length === 1 ? '' : 's'} on ${quiz.passage}, ${dropped.length} dropped\n`,
      );
      for (const question of dropped)
        context.stdout.write(`${describeDropped(question, 'question')}\n`);
    }
    if (quiz.questions.length === 0) {
      throw new RepaError('model_error', 'The model wrote no question whose citation verified.', {
        fix: `See its answer with repa runs show ${run.runId}, then start the quiz again or with another --model.`,
      });
    }
    const lines = learnerLines(context);
    try {
      const finals = await askQuestions(context, client, { ...quiz, space }, lines.next, overrides);
      if (!context.json) {
        const by = (help: string) => finals.filter((one) => one.answer?.help === help).length;
        context.stdout.write(
          `\nAnswered ${finals.length} of ${quiz.questions.length}: ${by('none')} without help, ${by('hint')} after a hint, ${by('passage')} with the passage (recorded in the study log).\n`,
        );
      }
    } finally {
      lines.close();
    }
    return 0;
  },
});

/** `repa study override`: the learner's own grade for a recorded answer. */
export const studyOverride = defineCommand({
  words: ['study', 'override'],
  summary: 'record your own grade for a quiz answer, beside the one given',
  usage: 'study override ANSWER GRADE [--space DIR]',
  help: `Records GRADE (again, hard, good or easy, or 1–4) as your own grade for ANSWER (the answer id
repa study quiz --json prints), in the study log beside the grade given, which stays.

Options:
  --space DIR      the space (default: the space you are in)

With --json: {"id", "answer", "given", "grade"}.`,
  options: { space: { type: 'string' } },
  positionals: [2, 2],
  async run(context, args, values) {
    const [answer, written] = args as [string, string];
    const own = ratingOf(written);
    if (own === 0) {
      throw usageError(
        `GRADE must be again, hard, good or easy (or 1–4), not ${JSON.stringify(written)}.`,
        `Run repa study override ${answer} good, for example.`,
      );
    }
    const client = await context.client();
    const done = await client.request('study.override', {
      space: spaceOf(context, values.space),
      answer,
      grade: own,
    });
    if (context.json) writeJson(context.stdout, done);
    else {
      context.stdout.write(
        `recorded ${RATING_LABELS[done.grade - 1]} for ${answer}, beside the grade given (${RATING_LABELS[done.given - 1]})\n`,
      );
    }
    return 0;
  },
});
