import type { v1Methods } from '../v1/methods.js';
import { approvalMalformed } from './approval-examples.js';
import { studyCheckMalformed } from './study-check-examples.js';
import { studyDraftMalformed } from './study-draft-examples.js';
import { studyMalformed } from './study-examples.js';
import { studyQuizMalformed } from './study-quiz-examples.js';

/** One malformed params example per method, with the path zod must name. */
export const malformed: Record<keyof typeof v1Methods, { params: unknown; path: string }> = {
  ...studyMalformed,
  initialize: { params: { protocolVersions: [] }, path: 'params.protocolVersions' },
  'space.open': { params: { root: 7 }, path: 'params.root' },
  'space.list': { params: [], path: 'params' },
  'files.list': { params: { space: '/a', limit: 0 }, path: 'params.limit' },
  'files.read': { params: { space: '/a', path: '' }, path: 'params.path' },
  'session.create': { params: { space: '/a', title: 5 }, path: 'params.title' },
  'session.list': { params: {}, path: 'params.space' },
  'session.resolve': { params: { space: '/spaces/a', session: '' }, path: 'params.session' },
  'session.history': { params: { space: '/a', sessionId: '' }, path: 'params.sessionId' },
  'session.rename': { params: { space: '/a', sessionId: 's1', title: '' }, path: 'params.title' },
  'session.subscribe': { params: { space: '/a' }, path: 'params.sessionId' },
  'session.unsubscribe': { params: { space: '/a', sessionId: 7 }, path: 'params.sessionId' },
  'session.compact': {
    params: { space: '/a', sessionId: 's', instructions: '' },
    path: 'params.instructions',
  },
  'session.delete': { params: { space: '/a' }, path: 'params.sessionId' },
  'space.trust': { params: { space: '/a', trusted: 'yes' }, path: 'params.trusted' },
  'run.submit': {
    params: { space: '/a', sessionId: 's', requestId: 'q', input: { type: 'text', text: '' } },
    path: 'params.input.text',
  },
  'run.get': { params: { runId: null }, path: 'params.runId' },
  'run.resolve': { params: { space: '/spaces/a' }, path: 'params.run' },
  'run.prune': { params: { endedBefore: 'yesterday' }, path: 'params.endedBefore' },
  'session.export': {
    params: { space: '/a', sessionId: 's', format: 'pdf' },
    path: 'params.format',
  },
  'run.list': { params: { limit: 0 }, path: 'params.limit' },
  'run.subscribe': { params: { runId: 3 }, path: 'params.runId' },
  'run.cancel': { params: {}, path: 'params.runId' },
  'run.retry': { params: { runId: 'r1' }, path: 'params.requestId' },
  'run.resume': { params: { requestId: 'q1' }, path: 'params.runId' },
  'run.diff': { params: { runId: 'r1', file: '' }, path: 'params.file' },
  'run.rewind': { params: { runId: 'r1', force: 'yes' }, path: 'params.force' },
  'settings.get': { params: { space: 1 }, path: 'params.space' },
  'settings.set': {
    params: { level: 'default', key: 'prompts.base', value: '' },
    path: 'params.level',
  },
  'settings.reset': {
    params: { level: 'space', key: 'prompts.base', expectedRevision: -1 },
    path: 'params.expectedRevision',
  },
  'materials.list': { params: { space: 3 }, path: 'params.space' },
  'materials.add': { params: { path: '/a.pdf', id: 'not an id' }, path: 'params.id' },
  'materials.remove': { params: {}, path: 'params.id' },
  'context.get': { params: {}, path: 'params.space' },
  'context.set': {
    params: { space: '/a', body: 'x', sources: [] },
    path: 'params.expectedRevision',
  },
  'context.build': { params: { space: '/a', buildId: 'b1', sources: [] }, path: 'params.sources' },
  'context.cancel': { params: { buildId: '' }, path: 'params.buildId' },
  'models.list': { params: { all: 'yes' }, path: 'params.all' },
  'login.start': {
    params: { provider: 'anthropic', type: 'password', loginId: 'l' },
    path: 'params.type',
  },
  'login.answer': { params: { loginId: 'l', promptId: 'p1' }, path: 'params.value' },
  'login.cancel': { params: { loginId: 7 }, path: 'params.loginId' },
  'login.logout': { params: { provider: '' }, path: 'params.provider' },
  'packages.list': { params: { space: 7 }, path: 'params.space' },
  'packages.add': { params: { source: '', level: 'space' }, path: 'params.source' },
  'packages.remove': { params: { source: '/p', level: 'user' }, path: 'params.level' },
  'models.next': { params: { space: 7 }, path: 'params.space' },
  doctor: { params: [], path: 'params' },
  ...studyDraftMalformed,
  ...studyQuizMalformed,
  ...studyCheckMalformed,
  ...studyMalformed,
  ...approvalMalformed,
};
