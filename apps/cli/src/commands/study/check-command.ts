import { randomUUID } from 'node:crypto';
import type { RepaClient } from '@repa/protocol';
import { defineCommand } from '../../command.js';
import { resolveRun } from '../../resolve-id.js';
import { usageError } from '../../usage-error.js';
import { runOverridesOf } from '../runs/index.js';
import { type Graded, gradeWithSecondTry, learnerLines, quietRun } from './grade-lines.js';

/** What a tutor check sends besides the answer: the tutor run, the citation, a first try. */
interface CheckParams {
  runId: string;
  citation?: number | undefined;
  after?: string | undefined;
}

/** One answer to a tutor's reply checked (spec R114): a grade run, then its grade. */
export async function checkOnce(
  client: RepaClient,
  params: CheckParams & { answer: string },
  overrides?: ReturnType<typeof runOverridesOf>,
): Promise<Graded> {
  const { runId, answer, citation, after } = params;
  const run = await quietRun(
    client,
    () =>
      client.request('study.check', {
        runId,
        answer,
        requestId: randomUUID(),
        ...(citation === undefined ? {} : { citation }),
        ...(after === undefined ? {} : { after }),
        ...(overrides ? { overrides } : {}),
      }),
    'check your answer again',
  );
  return client.request('study.graded', { runId: run.runId });
}

/** `repa study check`. */
export const studyCheck = defineCommand({
  words: ['study', 'check'],
  summary: "check your answer to a tutor's reply against the passage it cites",
  usage: 'study check [--citation N] [--model ID] RUN [ANSWER]',
  help: `Checks ANSWER, your answer in your own words to the reply of tutor run RUN (a run in tutor
mode, study.mode tutor: its id or first characters), against a passage the reply cites and Repa
verified: the first verified citation, or citation N. The answer is graded by a run of its own
against the cited lines of the version the tutor read, not against the model's words: Again, Hard,
Good or Easy, with the passage's words you missed. A first answer graded Again or Hard gets a hint
and a second try; after the grade the passage is shown. The final grade is recorded in the study
log (.repa/study/reviews.log) as a tutor answer: your question to the tutor, the passage and its
version, your answers and the help you had (none, a hint, or the passage).
In repa chat, /check ANSWER does the same for the last tutor reply.

Without ANSWER it is read from standard input: on a terminal it is asked for; off a terminal it is
the first line, and a second try the next line (input that ends gives an empty second try).

Options:
  --citation N     check against the reply's citation N (default: its first verified one)
  --model ID       provider/id of the model that grades (see repa models)

Refused (exit 1, invalid_request) when RUN was not in tutor mode, when its reply cites no passage
Repa verified, or when the cited document changed since the run read it.
With --json, one JSON line per grade: {"kind":"graded"} (runId, tutor, citation, attempt, grade,
missing, final, hint, answer, passage). repa study override ANSWER_ID GRADE records your own grade.`,
  options: { citation: { type: 'string' }, model: { type: 'string' } },
  positionals: [1, 2],
  async run(context, args, values) {
    const [typed = '', given] = args;
    const citation = values.citation === undefined ? undefined : Number(values.citation);
    if (citation !== undefined && !(Number.isInteger(citation) && citation >= 1)) {
      throw usageError(
        `--citation must be a citation's number (1, 2, …), not '${values.citation}'.`,
        `Pass e.g. --citation 1: repa study check ${typed} --citation 1`,
      );
    }
    const overrides = runOverridesOf({ model: values.model });
    const client = await context.client();
    const tutor = await resolveRun(client, typed);
    const { terminal, next, close } = learnerLines(context);
    try {
      const first = given ?? (await next('Your answer: '));
      if (first === undefined) {
        throw usageError('No answer to check: standard input ended.', 'Pass ANSWER, or one line.');
      }
      const graded = await gradeWithSecondTry(
        context,
        first,
        (answer, after) =>
          checkOnce(client, { runId: tutor.runId, citation, after, answer }, overrides),
        next,
        !terminal,
      );
      if (!context.json && graded.answer) {
        context.stdout.write(
          `Recorded in the study log as answer ${graded.answer.id} (repa study override ${graded.answer.id} GRADE gives your own grade).\n`,
        );
      }
    } finally {
      close();
    }
    return 0;
  },
});
