import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CELLS_NOTE, type OpenAiEndpoint } from '@repa/fixtures';
import { jsonLines, repa, studyLog } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStudyDaemon } from './commands-sandbox.js';
import { openTerminal } from './terminal-harness.js';

// `repa study quiz` through the built CLI and a real daemon, answers scripted on standard input:
// the offline responder and a scripted OpenAI-protocol endpoint write the questions and grade.
const { sandbox, endpoint } = useStudyDaemon();
let model: OpenAiEndpoint;

const VERSION = createHash('sha256').update(CELLS_NOTE).digest('hex');

interface Graded {
  question: string;
  attempt: number;
  grade: number;
  missing: string;
  droppedMissing?: string;
  final: boolean;
  hint: string | null;
  grader: string;
  answer: { id: string; help: string; answers: string[] } | null;
  passage: { cite: string; quote: string } | null;
}

/** A quiz of `notes/cells.md:3-5` answered with `answers`, one per line; its JSON lines. */
async function quiz(answers: string[], model?: string) {
  const run = await repa(
    sandbox,
    ['study', 'quiz', 'notes/cells.md:3-5', '--json', ...(model ? ['--model', model] : [])],
    { input: `${answers.join('\n')}\n` },
  );
  expect(run.code, run.stderr).toBe(0);
  const lines = jsonLines(run.stdout);
  const quizzed = lines.find((line) => line.kind === 'quizzed') as {
    runId: string;
    questions: { id: string; question: string; citation: { status: string } }[];
    dropped: { index: number; reason: string }[];
  };
  const graded = lines.filter((line) => line.kind === 'graded') as unknown as Graded[];
  return { quizzed, graded };
}

/** The final grades' answer entries of quiz `set` in the log, in order. */
const answersOf = (set: string) =>
  studyLog(sandbox).filter((entry) => entry.kind === 'answer' && entry.set === set);

beforeAll(() => {
  model = endpoint();
});

describe('repa study quiz', () => {
  it('asks three cloze questions offline, grades by the passage words with a hint then the passage, records every answer with its version, and keeps an override beside the grade', async () => {
    const { quizzed, graded } = await quiz(['money', 'currency', 'mitochondria', 'sugar', 'fat']);
    expect(quizzed.questions.map((one) => one.question)).toEqual([
      'ATP is the energy _____ of the cell.',
      '_____ make most of the ATP.',
      '_____ build proteins.',
    ]);
    expect(quizzed.questions.every((one) => one.citation.status === 'verified')).toBe(true);
    expect(graded.map((one) => [one.attempt, one.grade, one.missing, one.final])).toEqual([
      [1, 1, 'currency', false],
      [2, 3, '', true],
      [1, 3, '', true],
      [1, 1, 'Ribosomes', false],
      [2, 1, 'Ribosomes', true],
    ]);
    expect(graded[0]?.hint).toBe('You missed a word of the passage: "c…" (8 letters).');
    expect(graded[0]?.passage).toBeNull();
    expect(graded[4]?.passage).toEqual({
      cite: 'notes/cells.md:5',
      quote: 'Ribosomes build proteins.',
    });
    const entries = answersOf(quizzed.runId);
    expect(
      entries.map(({ question, answers, grade, help, version, grader, source }) => [
        question,
        answers,
        grade,
        help,
        version,
        grader,
        source,
      ]),
    ).toEqual([
      [
        'ATP is the energy _____ of the cell.',
        ['money', 'currency'],
        3,
        'hint',
        VERSION,
        'passage-words',
        'notes/cells.md',
      ],
      [
        '_____ make most of the ATP.',
        ['mitochondria'],
        3,
        'none',
        VERSION,
        'passage-words',
        'notes/cells.md',
      ],
      [
        '_____ build proteins.',
        ['sugar', 'fat'],
        1,
        'passage',
        VERSION,
        'passage-words',
        'notes/cells.md',
      ],
    ]);
    const missed = graded[4]?.answer?.id as string;
    const override = await repa(sandbox, ['study', 'override', missed, 'good']);
    expect(override.code, override.stderr).toBe(0);
    expect(override.stdout).toContain('recorded Good for');
    const log = studyLog(sandbox);
    expect(log.find((entry) => entry.id === missed)).toMatchObject({ grade: 1 });
    expect(log.at(-1)).toMatchObject({ kind: 'override', of: missed, grade: 3 });
  }, 120_000);

  it('keeps from a scripted model only questions whose citation verifies, drops a forged one, and grades against the passage', async () => {
    const text = (reply: string) => ({ kind: 'text' as const, text: reply });
    model.replies.splice(
      0,
      Infinity,
      {
        kind: 'tools',
        calls: [{ name: 'read', arguments: { path: 'notes/cells.md', offset: 3, limit: 3 } }],
      },
      text(
        [
          'Q: What is the energy currency of the cell?',
          'Source: [notes/cells.md:3 "ATP is the energy currency of the cell."]',
          '',
          'Q: What do ribosomes build?',
          'Source: [notes/cells.md:5 "Ribosomes build sugars"]',
          '',
          'Q: What makes most of the ATP?',
          'Source: [notes/cells.md:4 "Mitochondria make most of the ATP."]',
          '',
          'Q: What builds proteins?',
          'Source: [notes/cells.md:5 "Ribosomes build proteins."]',
        ].join('\n'),
      ),
      text('Grade: Again\nMissing: "ATP"'),
      text('Grade: Good\nMissing: nothing'),
      text('Grade: Easy\nMissing: nothing'),
      text('Grade: Hard\nMissing: "the answer is ribosomes"'),
      text('Grade: Hard\nMissing: "Ribosomes"'),
    );
    const { quizzed, graded } = await quiz(
      ['glucose', 'ATP', 'Mitochondria', 'proteins', 'cells'],
      'test/plain',
    );
    expect(quizzed.questions.map((one) => one.question)).toEqual([
      'What is the energy currency of the cell?',
      'What makes most of the ATP?',
      'What builds proteins?',
    ]);
    expect(quizzed.dropped.map(({ index, reason }) => [index, reason])).toEqual([
      [2, 'forged_quote'],
    ]);
    expect(graded.map((one) => [one.grade, one.missing, one.final, one.grader])).toEqual([
      [1, 'ATP', false, 'test/plain'],
      [3, '', true, 'test/plain'],
      [4, '', true, 'test/plain'],
      [2, '', false, 'test/plain'],
      [2, 'Ribosomes', true, 'test/plain'],
    ]);
    // A missing quote that is not words of the passage is not kept.
    expect(graded[3]?.droppedMissing).toBe('the answer is ribosomes');
    expect(
      answersOf(quizzed.runId).map(({ help, answers, version }) => [help, answers, version]),
    ).toEqual([
      ['hint', ['glucose', 'ATP'], VERSION],
      ['none', ['Mitochondria'], VERSION],
      ['passage', ['proteins', 'cells'], VERSION],
    ]);
    // The last grade request held the cited passage and the answer, and offered no editing tool.
    const last = model.requests.at(-1) as {
      messages: unknown[];
      tools?: { function: { name: string } }[];
    };
    expect(JSON.stringify(last.messages)).toContain(
      'Passage (notes/cells.md:5): \\"Ribosomes build proteins.\\"',
    );
    expect(JSON.stringify(last.messages)).toContain('Answer: \\"cells\\"');
    const tools = (last.tools ?? []).map((tool) => tool.function.name);
    expect(tools).not.toContain('write');
    expect(tools).not.toContain('edit');
  }, 120_000);

  it('on a terminal: answer, hint and second try, the passage, an own grade with o and a card with c', async () => {
    const screen = openTerminal(
      sandbox,
      ['study', 'quiz', '--space', sandbox.space, '--count', '2', 'notes/cells.md:3-4'],
      { columns: 110, rows: 40 },
    );
    try {
      await screen.waitFor(
        /Question 1 of 2[\s\S]*ATP is the energy _____ of the cell\.\nYour answer:$/,
      );
      screen.keys('money', 'Enter');
      await screen.waitFor(
        /→ Again: missing "currency"\nHint: You missed a word[^\n]*\nSecond try:$/,
      );
      screen.keys('cash', 'Enter');
      await screen.waitFor(
        /notes\/cells\.md:3 │ ATP is the energy currency of the cell\.\n.*c: make it a card >$/,
      );
      screen.keys('o', 'Enter');
      await screen.waitFor(/Your grade \(1 Again, 2 Hard, 3 Good, 4 Easy\):$/);
      screen.keys('3', 'Enter');
      await screen.waitFor(/Recorded your grade Good beside Again\.\n.*>$/);
      screen.keys('c', 'Enter');
      await screen.waitFor(
        /\[saved\] cards\/cells\.md: card \S+ \(undo with repa runs rewind \S+\)\n.*>$/,
      );
      screen.keys('Enter');
      await screen.waitFor(/Question 2 of 2[\s\S]*Your answer:$/);
      screen.keys('Mitochondria', 'Enter');
      await screen.waitFor(/→ Good \(help: none\)[\s\S]*>$/);
      screen.keys('Enter');
      const done = await screen.waitFor(/\[exit \d+\]/);
      expect(done).toContain('Answered 2 of 2: 1 without help, 0 after a hint, 1 with the passage');
      expect(done).toContain('[exit 0]');
    } finally {
      screen.close();
    }
    const note = readFileSync(join(sandbox.space, 'cards/cells.md'), 'utf8');
    expect(note).toContain('ATP is the energy ==currency== of the cell.\n<!--repa:card');
    const log = studyLog(sandbox);
    const answer = log.filter((entry) => entry.kind === 'answer').at(-2);
    expect(answer).toMatchObject({ answers: ['money', 'cash'], grade: 1, help: 'passage' });
    expect(log.find((entry) => entry.kind === 'override' && entry.of === answer?.id)).toMatchObject(
      {
        grade: 3,
      },
    );
  }, 120_000);

  it('refuses a --count out of range, naming it', async () => {
    const refused = await repa(sandbox, ['study', 'quiz', 'notes/cells.md', '--count', '40']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--count must be a whole number from 1 to 10, not '40'");
  });
});
