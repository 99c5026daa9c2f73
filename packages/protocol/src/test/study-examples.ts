// One valid params/result example and one malformed params example per study.* method (methods.test.ts).

/** Valid params and result of each `study.*` method. */
export const studyExamples = {
  'study.due': {
    params: { space: '/spaces/a', deck: '#bio', limit: 20 },
    result: {
      cards: [
        {
          id: 'catpcard001',
          note: 'cards.md',
          line: 3,
          kind: 'basic',
          front: 'What stores energy?',
          back: 'ATP',
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
        id: 'catpcard001',
        note: 'cards.md',
        line: 3,
        kind: 'basic',
        front: 'What stores energy?',
        back: 'ATP',
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
    params: { space: '/spaces/a', source: 'src/atp.md' },
    result: {
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
          sourceChanged: 0,
        },
      ],
      changed: [],
    },
  },
  'study.export': {
    params: { space: '/spaces/a', deck: 'bio' },
    result: { format: 'anki-text', text: '#separator:tab\n', cards: 0 },
  },
} as const;

/** Malformed params of each `study.*` method, with the field named. */
export const studyMalformed = {
  'study.due': { params: { space: '/a', limit: 0 }, path: 'params.limit' },
  'study.rate': { params: { space: '/a', card: 'c1234', rating: 5 }, path: 'params.rating' },
  'study.undo': { params: { space: 3 }, path: 'params.space' },
  'study.status': { params: { space: '/a', source: '' }, path: 'params.source' },
  'study.export': { params: { space: '/a', deck: '' }, path: 'params.deck' },
} as const;
