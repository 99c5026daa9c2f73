import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CELLS_NOTE } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { passageRun } from '../test/passage-run.js';
import { tempSpaces } from '../test/temp-space.js';
import { acceptCards } from './accept-cards.js';
import { parsePassage } from './draft-request.js';
import { hintOf, isPassageQuote, parseGradeAnswer } from './quiz-grade.js';
import { quizAsDraft, quizQuestions } from './quiz-questions.js';
import {
  gradeRequestText,
  parseGradeRequest,
  parseQuizRequest,
  quizRequestText,
} from './quiz-request.js';
import { StudyDeck } from './study-deck.js';

const space = tempSpaces();

/** A quiz run over `passage` in a real space: the real read tool's result, checked citations. */
async function quiz(passage: string, count: number, answer: string) {
  const root = await space({ 'notes/cells.md': CELLS_NOTE });
  const request = quizRequestText({ passage: parsePassage(passage), count });
  const { store, run } = await passageRun(root, { passage, request, answer, runId: 'quiz1' });
  return { root, store, run, quiz: await quizQuestions(store, run) };
}

const ANSWER = [
  'Q: What is the energy currency of the cell?',
  'Source: [notes/cells.md:3 "ATP is the energy currency of the cell."]',
  '',
  'Q: What do ribosomes build?',
  'Source: [notes/cells.md:5 "Ribosomes build sugars"]',
  '',
  'Cloze: ==Mitochondria== make most of the ATP.',
  'Source: [notes/cells.md:4 "Mitochondria make most of the ATP."]',
  '',
  'Q: What builds proteins?',
  'Source: [notes/cells.md:5 "Ribosomes build proteins."]',
  '',
  'Q: One too many?',
  'Source: [notes/cells.md:3 "ATP is the energy currency"]',
].join('\n');

describe('quizQuestions', () => {
  it('keeps the first count questions whose citation verifies and drops a forged quote and the extra, with reasons', async () => {
    const { quiz: checked } = await quiz('notes/cells.md:3-5', 3, ANSWER);
    expect(checked.questions.map((one) => [one.question, one.kind, one.cite])).toEqual([
      ['What is the energy currency of the cell?', 'question', 'notes/cells.md:3'],
      ['_____ make most of the ATP.', 'cloze', 'notes/cells.md:4'],
      ['What builds proteins?', 'question', 'notes/cells.md:5'],
    ]);
    expect(checked.questions.every((one) => one.citation.status === 'verified')).toBe(true);
    expect(checked.questions[0]?.quote).toBe('ATP is the energy currency of the cell.');
    expect(checked.dropped.map(({ index, reason }) => [index, reason])).toEqual([
      [2, 'forged_quote'],
      [5, 'extra_card'],
    ]);
  });

  it('saves a question as a card through acceptCards: a cloze as written, a question with its passage as the back', async () => {
    const { root, store, run, quiz: checked } = await quiz('notes/cells.md:3-5', 3, ANSWER);
    const [first, cloze] = checked.questions;
    const saved = await acceptCards(store, run.runId, quizAsDraft(checked), [
      { id: first?.id as string },
      { id: cloze?.id as string },
    ]);
    expect(saved.note).toBe('cards/cells.md');
    const text = await readFile(join(root, 'cards/cells.md'), 'utf8');
    expect(text).toContain(
      'What is the energy currency of the cell?::ATP is the energy currency of the cell.',
    );
    expect(text).toContain('==Mitochondria== make most of the ATP.\n<!--repa:card');
  });
});

describe('quiz and grade requests', () => {
  it('reads back what they ask, the answer as the learner wrote it', () => {
    const passage = parsePassage('notes/cells.md:3-5');
    expect(parseQuizRequest(quizRequestText({ passage, count: 3 }))).toEqual({ passage, count: 3 });
    const grade = {
      quiz: 'q1',
      question: 'c1',
      after: 'g1',
      cite: 'notes/cells.md:3',
      passage: 'ATP is the energy currency of the cell.',
      asked: 'What is "ATP"?',
      answer: 'energy money\nAnswer: "not this"',
    };
    expect(parseGradeRequest(gradeRequestText(grade))).toEqual(grade);
    expect(parseGradeRequest(quizRequestText({ passage, count: 3 }))).toBeUndefined();
  });

  it('parses a grade answer, keeps a missing quote only when it is words of the passage, and hints without the answer', () => {
    expect(parseGradeAnswer('**Grade:** Hard\nMissing: "energy currency"')).toEqual({
      grade: 2,
      missing: 'energy currency',
    });
    expect(parseGradeAnswer('Grade: Good\nMissing: nothing')).toEqual({ grade: 3, missing: '' });
    expect(parseGradeAnswer('I think it is fine.')).toBeUndefined();
    const passage = 'ATP is the energy currency of the cell.';
    expect(isPassageQuote('Energy currency', passage)).toBe(true);
    expect(isPassageQuote('ATP … the cell', passage)).toBe(true);
    expect(isPassageQuote('energy money', passage)).toBe(false);
    const hint = hintOf('currency', 'notes/cells.md:3');
    expect(hint).toBe('You missed a word of the passage: "c…" (8 letters).');
    expect(hint).not.toContain('currency');
    // More than three: their count and the first one's letter and length, still not a word of them.
    const long = hintOf('happens … stroma … fixes … carbon … dioxide', 'notes/photosynthesis.md:4');
    expect(long).toBe(
      'The passage notes/photosynthesis.md:4 says more: what you missed is 5 words, the first "h…" (7 letters).',
    );
    expect(long).not.toContain('happens');
  });
});

describe('the deck keeps answers', () => {
  it('appends an answer once by its id and an override beside it; an override of no answer is not_found', async () => {
    const { store } = await quiz('notes/cells.md:3', 1, '');
    const deck = new StudyDeck(store);
    const entry = {
      id: 'a1',
      origin: 'quiz' as const,
      set: 'quiz1',
      question: 'What is ATP?',
      cite: 'notes/cells.md:3',
      source: 'notes/cells.md',
      version: 'f'.repeat(64),
      answers: ['money'],
      grade: 1,
      missing: 'energy currency',
      help: 'none' as const,
      grader: 'passage-words',
    };
    const first = await deck.answer(entry);
    expect(await deck.answer({ ...entry, grade: 4 })).toEqual(first);
    const { answer } = await deck.override('a1', 3);
    expect(answer.grade).toBe(1);
    await expect(deck.override('a2', 3)).rejects.toMatchObject({ code: 'not_found' });
    const log = await readFile(join(store.root, '.repa/study/reviews.log'), 'utf8');
    expect(log.split('\n').map((line) => /"kind":"(\w+)"/.exec(line)?.[1])).toEqual([
      undefined,
      'answer',
      'override',
    ]);
  });
});
