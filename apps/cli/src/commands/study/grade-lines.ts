import { createInterface } from 'node:readline/promises';
import {
  RATING_LABELS,
  type RepaClient,
  RepaError,
  type RunInfo,
  runToEnd,
  type V1Result,
} from '@repa/protocol';
import type { CliContext } from '../../cli-context.js';
import { onTerminal } from '../../consent.js';
import { writeJson } from '../../format-table.js';
import { paint } from '../../style.js';
import { ask } from './draft-choices.js';

/** A grade as `study.graded` gives it (of a quiz answer or a tutor check). */
export type Graded = V1Result<'study.graded'>;
/** The next line the learner gives after `prompt`; `undefined` when input ended. */
export type NextLine = (prompt: string) => Promise<string | undefined>;

/**
 * A study run followed to its end without printing it (its text is Repa's to read); it must
 * succeed (`again`: how to start over, for the fix).
 */
export async function quietRun(
  client: RepaClient,
  start: () => Promise<{ run: RunInfo; resubmitted: boolean }>,
  again: string,
): Promise<RunInfo> {
  const ended = await runToEnd(client, start);
  if (ended.status !== 'succeeded') {
    throw new RepaError('model_error', `Run ${ended.runId} ${ended.status}.`, {
      fix: `See why with repa runs show ${ended.runId}, then ${again}.`,
    });
  }
  return ended;
}

/** A grade in words: `Again: missing "…"`, and what help came before it. */
export function gradeLine(out: NodeJS.WritableStream, graded: Graded): string {
  const label = RATING_LABELS[graded.grade - 1] ?? String(graded.grade);
  const missing = graded.missing === '' ? '' : `: missing "${graded.missing}"`;
  const help = graded.answer ? ` (help: ${graded.answer.help})` : '';
  const color = graded.grade >= 3 ? 'green' : 'yellow';
  return `${paint(out, color, `→ ${label}`)}${missing}${help}`;
}

/** The passage a final grade was graded against, dimmed: `notes/x.md:3 │ its lines`. */
export function passageLines(out: NodeJS.WritableStream, passage: { cite: string; quote: string }) {
  return paint(out, 'dim', `  ${passage.cite} │ ${passage.quote.replaceAll('\n', '\n  │ ')}`);
}

/**
 * One answer graded (`grade`), and after a first try graded Again or Hard its hint and a second
 * try (the next line; input that ended gives an empty one); the passage after the final grade.
 * Prints each grade (a JSON line with `--json`) and resolves with the final one.
 */
export async function gradeWithSecondTry(
  context: CliContext,
  first: string,
  grade: (answer: string, after?: string) => Promise<Graded>,
  next: NextLine,
  echo: boolean,
): Promise<Graded> {
  const out = context.stdout;
  const say = (line: string) => {
    if (!context.json) out.write(`${line}\n`);
  };
  const shown = (graded: Graded) => {
    if (context.json) writeJson(out, { kind: 'graded', ...graded });
    say(gradeLine(out, graded));
    return graded;
  };
  let graded = shown(await grade(first));
  if (!graded.final) {
    say(`Hint: ${graded.hint ?? ''}`);
    const second = (await next('Second try: ')) ?? '';
    if (echo) say(`A: ${second}`);
    graded = shown(await grade(second, graded.runId));
  }
  if (graded.passage) say(passageLines(out, graded.passage));
  return graded;
}

/** The lines of standard input, one per call (off a terminal: answers scripted). */
function stdinLines(context: CliContext): NextLine {
  const lines = createInterface({ input: context.stdin, terminal: false })[Symbol.asyncIterator]();
  return async () => {
    const read = await lines.next();
    return read.done ? undefined : read.value;
  };
}

/**
 * Where the learner's answers come from: on a terminal (and without `--json`) each is asked for;
 * otherwise they are the lines of standard input. `close` ends the asking.
 */
export function learnerLines(context: CliContext): {
  terminal: boolean;
  next: NextLine;
  close: () => void;
} {
  const terminal = onTerminal(context) && !context.json;
  if (!terminal) return { terminal, next: stdinLines(context), close: () => {} };
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  return { terminal, next: (question) => ask(prompt, question), close: () => prompt.close() };
}
