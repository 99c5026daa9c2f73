// Spec R114: tutor checks through the built CLI and a real daemon on the offline model: `repa study
// check` with answers on standard input, and `/check` in `repa chat` on a real terminal (tmux).
import { createHash } from 'node:crypto';
import { jsonLines, repa, studyLog, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';
import { openTerminal, type Terminal } from './terminal-harness.js';

const MOON = '# The Moon\n\nThe Moon pulls the oceans toward it, which makes the tides.\n';
const sandbox = useDaemon({
  model: 'repa-offline',
  prepare: (sandbox) => writeFiles(sandbox.space, { 'notes/moon.md': MOON }),
});
let terminal: Terminal | undefined;

const VERSION = createHash('sha256').update(MOON).digest('hex');
const QUESTION = 'What makes the tides? See notes/moon.md';

/** The study log's `answer` entries. */
const answers = () => studyLog(sandbox).filter((entry) => entry.kind === 'answer');

/** A run of QUESTION (tutor mode unless told), its id. */
async function asked(mode = 'tutor'): Promise<string> {
  const run = await repa(sandbox, ['run', '--study-mode', mode, QUESTION]);
  expect(run.code, run.stderr).toBe(0);
  const runId = /\[succeeded\] run (\S+)/u.exec(run.stdout)?.[1];
  expect(runId).toMatch(/^[0-9a-f-]{36}$/u);
  return runId as string;
}

afterAll(() => terminal?.close());

describe('repa study check', () => {
  it("grades an answer to a tutor's reply by the cited passage's words, a hint then the second try from stdin, and records it as a tutor answer", async () => {
    const tutor = await asked();
    const run = await repa(sandbox, ['study', 'check', tutor.slice(0, 8), 'the moon', '--json'], {
      input: 'the Moon pulls the oceans toward it\n',
    });
    expect(run.code, run.stderr).toBe(0);
    const graded = jsonLines(run.stdout);
    expect(graded.map((one) => [one.kind, one.attempt, one.grade, one.missing, one.final])).toEqual(
      [
        ['graded', 1, 1, 'pulls … oceans … toward', false],
        ['graded', 2, 3, '', true],
      ],
    );
    expect(graded[0]).toMatchObject({
      tutor,
      citation: 1,
      grader: 'passage-words',
      hint: 'You missed 3 words of the passage: "p…" (5 letters), "o…" (6 letters), "t…" (6 letters).',
    });
    expect(graded[1]?.passage).toEqual({
      cite: 'notes/moon.md:3',
      quote: 'The Moon pulls the oceans toward it, which makes the tides.',
    });
    expect(answers().at(-1)).toMatchObject({
      origin: 'tutor',
      set: tutor,
      question: QUESTION,
      cite: 'notes/moon.md:3',
      source: 'notes/moon.md',
      version: VERSION,
      answers: ['the moon', 'the Moon pulls the oceans toward it'],
      grade: 3,
      help: 'hint',
      grader: 'passage-words',
    });
  });

  it('refuses a run that was not in tutor mode, saying how to check instead', async () => {
    const answered = await asked('answer');
    const run = await repa(sandbox, ['study', 'check', answered, 'the moon']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('was not in tutor mode (study.mode answer)');
    expect(run.stderr).toContain('Turn tutor mode on (/tutor in repa chat');
  });
});

describe('/check in repa chat', () => {
  it('checks the last tutor reply: the grade and hint, /check again for the second try, then the passage', async () => {
    const before = answers().length;
    terminal = openTerminal(sandbox, ['chat', '--new'], { columns: 120, rows: 40 });
    await terminal.waitFor(/edits auto ·/);
    terminal.keys('/help', 'Enter');
    await terminal.waitFor(/\/check\s+ANSWER: check your answer against the passage/);
    terminal.keys('/check the moon', 'Enter');
    await terminal.waitFor(/No tutor reply to check in this session/);
    terminal.keys('/tutor', 'Enter');
    await terminal.waitFor(/tutor mode on for this session/);
    terminal.keys(QUESTION, 'Enter');
    await terminal.waitFor(/reasoning\s+against\s+it\./);
    terminal.keys('/check the moon', 'Enter');
    await terminal.waitFor(/Second try: \/check YOUR ANSWER again/);
    const first = terminal.screen().replace(/\s+/g, ' ');
    expect(first).toContain('[check] → Again: missing "pulls … oceans … toward"');
    expect(first).toContain('Hint: You missed 3 words of the passage');
    terminal.keys('/check the Moon pulls the oceans', 'Enter');
    await terminal.waitFor(/Recorded in the study log/);
    const second = terminal.screen().replace(/\s+/g, ' ');
    expect(second).toContain('[check] → Hard: missing "toward" (help: passage)');
    expect(second).toContain(
      'notes/moon.md:3 │ The Moon pulls the oceans toward it, which makes the tides.',
    );
    terminal.keys('/quit', 'Enter');
    await terminal.waitFor(/\[exit 0\]/);
    expect(answers().slice(before)).toMatchObject([
      {
        origin: 'tutor',
        question: QUESTION,
        answers: ['the moon', 'the Moon pulls the oceans'],
        help: 'passage',
        version: VERSION,
      },
    ]);
  });
});
