import { tidesLine3, tidesRunParams } from './tides-passage.js';

/** Valid examples of the `study.quiz|quizzed|answer|graded|override` methods, around a run example. */
export function studyQuizExamples(run: object, sha: string) {
  return {
    'study.quiz': {
      params: { ...tidesRunParams, count: 3 },
      result: { run, resubmitted: false, passage: 'notes/tides.md:3-9' },
    },
    'study.quizzed': {
      params: { runId: 'r1' },
      result: {
        runId: 'r1',
        passage: 'notes/tides.md:3-9',
        note: 'cards/tides.md',
        questions: [
          {
            id: 'cabcdefghij',
            question: 'The tide turns every _____.',
            kind: 'cloze',
            ...tidesLine3,
            version: sha,
          },
        ],
        dropped: [],
      },
    },
    'study.answer': {
      params: { runId: 'r1', question: 'cabcdefghij', answer: 'six hours', requestId: 'q2' },
      result: { run, resubmitted: false },
    },
    'study.graded': {
      params: { runId: 'r2' },
      result: {
        runId: 'r2',
        quiz: 'r1',
        question: 'cabcdefghij',
        attempt: 1,
        grade: 3,
        missing: '',
        grader: 'passage-words',
        final: true,
        hint: null,
        answer: { id: 'aabcdefghijkl', help: 'none', answers: ['six hours'], version: sha },
        passage: { cite: 'notes/tides.md:3', quote: 'The tide turns every six hours.' },
      },
    },
    'study.override': {
      params: { space: '/spaces/a', answer: 'aabcdefghijkl', grade: 4 },
      result: { id: 'rabcdefghijkl', answer: 'aabcdefghijkl', given: 3, grade: 4 },
    },
  } as const;
}

/** Malformed params of the `study.*` quiz methods, with the path zod must name. */
export const studyQuizMalformed = {
  'study.quiz': {
    params: { space: '/a', sessionId: 's1', requestId: 'q1', passage: 'a.md', count: 11 },
    path: 'params.count',
  },
  'study.quizzed': { params: {}, path: 'params.runId' },
  'study.answer': {
    params: { runId: 'r1', question: 'c1', requestId: 'q1' },
    path: 'params.answer',
  },
  'study.graded': { params: { runId: 5 }, path: 'params.runId' },
  'study.override': { params: { space: '/a', answer: 'a1', grade: 5 }, path: 'params.grade' },
} as const;
