import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Json } from './conformance-kit.js';

/** What the study part of the conformance drive needs of its test. */
interface StudyDrive {
  /** Calls a method (recorded as called) and gives its result. */
  call(method: string, params: unknown): Promise<Json>;
  /** Resolves once the run ended. */
  ended(runId: string): Promise<unknown>;
  space: string;
  sessionId: string;
}

/**
 * The `study.*` methods driven on the offline model: cards in a note reviewed, a draft run's
 * cards, and a quiz with a wrong answer, its second try and an overridden grade.
 */
export async function driveStudy({ call, ended, space, sessionId }: StudyDrive): Promise<void> {
  // Study cards in a note: due, rated, the rating taken back, progress and the Anki export.
  writeFileSync(join(space, 'notes', 'cards.md'), 'What turns every six hours?::The tide\n');
  const due = (await call('study.due', { space, limit: 5 })) as {
    cards: { id: string; front: string }[];
  };
  expect(due.cards.map((card) => card.front)).toEqual(['What turns every six hours?']);
  const card = due.cards[0]?.id as string;
  expect(await call('study.rate', { space, card, rating: 3, mode: 'flip' })).toMatchObject({
    card: { id: card, fsrs: { state: 'learning', reps: 1 } },
  });
  expect(await call('study.undo', { space })).toMatchObject({
    undone: { card, rating: 3 },
    fsrs: null,
  });
  expect(await call('study.status', { space })).toMatchObject({
    sources: [{ source: 'notes/cards.md', cards: 1, new: 1 }],
  });
  expect(await call('study.export', { space })).toMatchObject({ format: 'anki-text', cards: 1 });
  // Drafting cards: a draft run on the offline model, its checked cards, one saved as its save.
  const draft = (await call('study.draft', {
    space,
    sessionId,
    requestId: 'conformance-draft',
    passage: 'notes/a.md:3',
  })) as { run: { runId: string } };
  await ended(draft.run.runId);
  const drafted = (await call('study.drafted', { runId: draft.run.runId })) as {
    cards: { id: string }[];
  };
  expect(drafted.cards).toHaveLength(1);
  expect(
    await call('study.accept', {
      runId: draft.run.runId,
      cards: [{ id: drafted.cards[0]?.id, back: '' }],
    }),
  ).toMatchObject({ note: 'cards/a.md', receipts: [{ operationId: `${draft.run.runId}-1` }] });
  // A quiz: a quiz run on the offline model, its questions, a wrong answer graded with a hint,
  // the second try graded final (the passage shown), the grade overridden.
  const quiz = (await call('study.quiz', {
    space,
    sessionId,
    requestId: 'conformance-quiz',
    passage: 'notes/a.md:3',
    count: 1,
  })) as { run: { runId: string } };
  await ended(quiz.run.runId);
  const quizzed = (await call('study.quizzed', { runId: quiz.run.runId })) as {
    questions: { id: string; question: string }[];
  };
  expect(quizzed.questions.map((one) => one.question)).toEqual(['The tide _____ every six hours.']);
  const question = quizzed.questions[0]?.id as string;
  const tries: { run: { runId: string } }[] = [];
  for (const [answer, after] of [
    ['goes', undefined],
    ['rises', 'first'],
  ] as const) {
    const asked = (await call('study.answer', {
      runId: quiz.run.runId,
      question,
      answer,
      requestId: `conformance-answer-${answer}`,
      ...(after ? { after: tries[0]?.run.runId } : {}),
    })) as { run: { runId: string } };
    tries.push(asked);
    await ended(asked.run.runId);
  }
  expect(await call('study.graded', { runId: tries[0]?.run.runId })).toMatchObject({
    grade: 1,
    missing: 'turns',
    final: false,
    hint: 'You missed a word of the passage: "t…" (5 letters).',
  });
  const graded = (await call('study.graded', { runId: tries[1]?.run.runId })) as {
    answer: { id: string };
  };
  expect(graded).toMatchObject({
    final: true,
    grader: 'passage-words',
    answer: { help: 'passage', answers: ['goes', 'rises'] },
    passage: { cite: 'notes/a.md:3', quote: 'The tide turns every six hours.' },
  });
  expect(await call('study.override', { space, answer: graded.answer.id, grade: 3 })).toMatchObject(
    { answer: graded.answer.id, given: 1, grade: 3 },
  );
}
