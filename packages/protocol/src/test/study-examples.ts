/** The card the review examples show: a basic card of `cards.md`. */
const atpCard = {
  id: 'catpcard001',
  note: 'cards.md',
  line: 3,
  kind: 'basic',
  front: 'What stores energy?',
  back: 'ATP',
} as const;

/** Valid examples of the `study.due|rate|undo|status|export` methods. */
export const studyExamples = {
  'study.due': {
    params: { space: '/spaces/a', deck: '#bio', limit: 20 },
    result: {
      cards: [
        {
          ...atpCard,
          tags: ['bio'],
          source: {
            status: 'changed',
            cite: 'src/atp.md:2-3',
            quote: 'ATP stores energy.',
            lines: 'ATP stores phosphate.',
          },
          fsrs: {
            state: 'new',
            due: '2026-03-01T09:00:00.000Z',
            stability: 0,
            difficulty: 0,
            scheduledDays: 0,
            learningSteps: 0,
            reps: 0,
            lapses: 0,
          },
          next: {
            again: { due: '2026-03-01T09:01:00.000Z', scheduledDays: 0 },
            hard: { due: '2026-03-01T09:06:00.000Z', scheduledDays: 0 },
            good: { due: '2026-03-01T09:10:00.000Z', scheduledDays: 0 },
            easy: { due: '2026-03-09T09:00:00.000Z', scheduledDays: 8 },
          },
        },
      ],
      total: 1,
    },
  },
  'study.rate': {
    params: { space: '/spaces/a', card: 'catpcard001', rating: 3, durationMs: 4200, mode: 'flip' },
    result: {
      card: {
        ...atpCard,
        tags: [],
        source: { status: 'ok', cite: 'src/atp.md:2-3' },
        fsrs: {
          state: 'learning',
          due: '2026-03-01T09:10:00.000Z',
          stability: 2.3,
          difficulty: 2.1,
          scheduledDays: 0,
          learningSteps: 1,
          reps: 1,
          lapses: 0,
          lastReview: '2026-03-01T09:00:00.000Z',
        },
      },
      reviewedAt: '2026-03-01T09:00:00.000Z',
    },
  },
  'study.undo': {
    params: { space: '/spaces/a' },
    result: {
      undone: { card: 'catpcard001', rating: 3, reviewedAt: '2026-03-01T09:00:00.000Z' },
      fsrs: null,
    },
  },
  'study.status': {
    params: { space: '/spaces/a', source: 'src/atp.md', timeZone: 'Europe/Berlin' },
    result: {
      at: '2026-03-08T09:00:00.000Z',
      sources: [
        {
          source: 'src/atp.md',
          version: 'a'.repeat(64),
          cards: 4,
          new: 1,
          learning: 1,
          review: 2,
          due: 2,
          recall: 0.87,
          ratings: { again: 1, hard: 0, good: 5, easy: 1 },
          answers: {
            none: { again: 0, hard: 1, good: 2, easy: 0 },
            hint: { again: 1, hard: 0, good: 0, easy: 0 },
            passage: { again: 0, hard: 0, good: 0, easy: 0 },
          },
          lastStudied: '2026-03-07T18:30:00.000Z',
          sourceChanged: 0,
          questionsChanged: 0,
          calendar: [2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        },
      ],
      calendar: Array.from({ length: 14 }, (_, day) => ({
        date: `2026-03-${String(8 + day).padStart(2, '0')}`,
        due: [2, 0, 1][day] ?? 0,
      })),
      changed: [],
      changedQuestions: [],
    },
  },
  'study.export': {
    params: { space: '/spaces/a', deck: 'bio' },
    result: { format: 'anki-text', text: '#separator:tab\n', cards: 0 },
  },
};

/** One malformed params example per `study.*` review method, with the path zod must name. */
export const studyMalformed = {
  'study.due': { params: { space: '/a', limit: 0 }, path: 'params.limit' },
  'study.rate': { params: { space: '/a', card: 'c1234', rating: 5 }, path: 'params.rating' },
  'study.undo': { params: { space: 3 }, path: 'params.space' },
  'study.status': { params: { space: '/a', source: '' }, path: 'params.source' },
  'study.export': { params: { space: '/a', deck: '' }, path: 'params.deck' },
};
