import { tidesLine3, tidesRunParams } from './tides-passage.js';

/** Valid examples of the `study.draft|drafted|accept` methods, around a run example. */
export function studyDraftExamples(run: object, sha: string) {
  return {
    'study.draft': {
      params: { ...tidesRunParams, overrides: { model: 'repa-offline' } },
      result: { run, resubmitted: false, passage: 'notes/tides.md:3-9' },
    },
    'study.drafted': {
      params: { runId: 'r1' },
      result: {
        runId: 'r1',
        passage: 'notes/tides.md:3-9',
        note: 'cards/tides.md',
        cards: [
          {
            id: 'cabcdefghij',
            front: 'The tide turns every ==six hours==.',
            back: '',
            ...tidesLine3,
            version: sha,
            quote: 'The tide turns every six hours.',
          },
        ],
        dropped: [
          {
            index: 2,
            front: 'When do tides turn?',
            back: 'every six hours',
            reason: 'forged_quote',
            explanation: 'the quoted words are not in notes/tides.md, line 4',
          },
        ],
      },
    },
    'study.accept': {
      params: { runId: 'r1', cards: [{ id: 'cabcdefghij', back: '' }], note: 'cards/tides.md' },
      result: {
        runId: 'r1',
        note: 'cards/tides.md',
        cards: ['cabcdefghij'],
        replaced: [],
        receipts: [
          {
            operationId: 'r1-1',
            target: 'cards/tides.md',
            identity: 'repa:document/d2',
            previousVersion: null,
            version: sha,
            bytes: 120,
          },
        ],
      },
    },
  } as const;
}

/** Malformed params of the `study.*` drafting methods, with the path zod must name. */
export const studyDraftMalformed = {
  'study.draft': {
    params: { space: '/a', sessionId: 's1', requestId: 'q1', passage: '' },
    path: 'params.passage',
  },
  'study.drafted': { params: {}, path: 'params.runId' },
  'study.accept': { params: { runId: 'r1', cards: [] }, path: 'params.cards' },
} as const;
