import { runInfo } from '../testing/index.js';
import type { v1Methods } from '../v1/methods.js';
import { approvalExamples } from './approval-examples.js';
import { studyCheckExamples } from './study-check-examples.js';
import { studyDraftExamples } from './study-draft-examples.js';
import { studyExamples } from './study-examples.js';
import { studyQuizExamples } from './study-quiz-examples.js';

// One valid params/result example per v1 method (methods.test.ts); the malformed ones are in
// malformed-params.ts.

/** A sha256 hex digest. */
export const sha = 'a'.repeat(64);
const run = runInfo({
  status: 'accepted',
  settingsRevisions: { application: 3, space: 1, session: 0 },
});
const item = {
  key: 'prompts.base',
  value: '',
  source: 'space',
  defaultValue: null,
  overrides: { space: { value: '', revision: 2 } },
  revisions: { application: 0, space: 2 },
};
const session = { sessionId: 's1', space: '/spaces/a', createdAt: '2026-12-02T10:00:00.000Z' };
const material = {
  id: 'ch3',
  identity: 'repa:material/ch3',
  path: '/books/ch3.pdf',
  type: 'pdf',
  bytes: 1024,
  spaces: ['/spaces/a'],
  state: 'ok',
};

const choice = {
  model: 'repa-offline',
  source: 'no-credentials',
  thinkingLevel: 'off',
  thinkingSource: 'pi-default',
  offline: true,
  credentials: true,
};

/** One valid params and result example per method. */
export const examples: Record<keyof typeof v1Methods, { params: unknown; result: unknown }> = {
  ...studyExamples,
  initialize: {
    params: { protocolVersions: ['v1'], client: { name: 'repa-cli', version: '0.0.0' } },
    result: { protocolVersion: 'v1', server: { name: 'repa-daemon', version: '0.0.0' } },
  },
  'files.list': {
    params: { space: '/spaces/a', path: 'notes' },
    result: {
      folder: 'notes',
      entries: [
        { name: 'week-1', path: 'notes/week-1', folder: true },
        { name: 'tides.md', path: 'notes/tides.md', folder: false, size: 812 },
        { name: 'moon.pdf', path: 'notes/moon.pdf', folder: false, size: 90210, document: true },
      ],
      more: 0,
      ignored: 1,
      symlinksLeaving: 0,
    },
  },
  'files.read': {
    params: { space: '/spaces/a', path: 'notes/moon.pdf' },
    result: {
      path: 'notes/moon.pdf',
      identity: 'repa:document/d1',
      version: 'a'.repeat(64),
      bytes: 90210,
      text: '[Page 1 of 2]\nThe Moon\n\n[Page 2 of 2]\nTides',
      lines: 5,
      truncated: false,
      document: { format: 'pdf', unit: 'page', parts: [{ line: 1 }, { line: 4 }] },
    },
  },
  'space.list': {
    params: {},
    result: {
      spaces: [
        {
          root: '/spaces/a',
          name: 'a',
          openedAt: '2026-12-02T10:00:00.000Z',
          missing: false,
          trusted: true,
        },
      ],
    },
  },
  'space.open': {
    params: { root: '/spaces/a' },
    result: { space: { root: '/spaces/a', name: 'a', learningContext: null } },
  },
  'session.create': { params: { space: '/spaces/a', title: 'Biology' }, result: { session } },
  'session.list': { params: { space: '/spaces/a' }, result: { sessions: [session] } },
  'session.resolve': {
    params: { space: '/spaces/a', session: 'latest' },
    result: { session },
  },
  'session.history': {
    params: { space: '/spaces/a', sessionId: 's1' },
    result: {
      items: [{ entryId: 'e1', kind: 'user', timestamp: '2026-12-02T10:00:00.000Z', text: 'hi' }],
    },
  },
  'session.subscribe': {
    params: { space: '/spaces/a', sessionId: 's1' },
    result: { runs: [] },
  },
  'session.unsubscribe': {
    params: { space: '/spaces/a', sessionId: 's1' },
    result: { unsubscribed: true },
  },
  'session.rename': {
    params: { space: '/spaces/a', sessionId: 's1', title: 'Tides' },
    result: { session: { ...session, title: 'Tides' } },
  },
  'session.compact': {
    params: { space: '/spaces/a', sessionId: 's1', instructions: 'Keep the open questions.' },
    result: { summary: 'Tides, twice.', tokensBefore: 5000, tokensAfter: 800 },
  },
  'session.delete': {
    params: { space: '/spaces/a', sessionId: 's1' },
    result: { sessionId: 's1', runsRemoved: 3 },
  },
  'session.export': {
    params: { space: '/spaces/a', sessionId: 's1', format: 'markdown', offset: 0 },
    result: { content: '# Tides\n', totalChars: 8 },
  },
  'run.prune': {
    params: { endedBefore: '2026-12-02T10:00:00.000Z', space: '/spaces/a' },
    result: { pruned: 12, imagesRemoved: 1 },
  },
  'space.trust': {
    params: { space: '/spaces/a', trusted: true },
    result: { space: '/spaces/a', trusted: true, wasTrusted: false },
  },
  'run.submit': {
    params: { space: '/spaces/a', sessionId: 's1', requestId: 'q1', input: run.input },
    result: { run, resubmitted: false },
  },
  'run.get': { params: { runId: 'r1' }, result: { run } },
  'run.resolve': { params: { run: 'latest', space: '/spaces/a' }, result: { run } },
  'run.list': {
    params: { sessionId: 's1', status: 'running', limit: 10 },
    result: { runs: [run] },
  },
  'run.subscribe': { params: { runId: 'r1' }, result: { run } },
  'run.cancel': {
    params: { runId: 'r1' },
    result: {
      run: {
        ...run,
        status: 'cancelled',
        error: { code: 'cancelled', message: 'cancelled by the user', fix: 'submit again' },
      },
    },
  },
  'run.retry': {
    params: { runId: 'r1', requestId: 'q2' },
    result: { run: { ...run, runId: 'r2', attempt: 2, retryOf: 'r1' }, resubmitted: false },
  },
  'run.resume': {
    params: { runId: 'r1', requestId: 'q3' },
    result: { run: { ...run, runId: 'r3', attempt: 2, resumeOf: 'r1' }, resubmitted: false },
  },
  'run.diff': {
    params: { runId: 'r1', file: 'notes/a.md' },
    result: {
      runId: 'r1',
      files: [
        {
          target: 'notes/a.md',
          change: 'modified',
          beforeVersion: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
          afterVersion: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
          diff: { target: 'notes/a.md', added: 1, removed: 1, diff: '@@ -1 +1 @@\n-a\n+b\n' },
        },
      ],
      commands: [{ target: 'out.txt', operationId: 'r1-2' }],
    },
  },
  'run.rewind': {
    params: { runId: 'r1', files: ['notes/a.md'], conversation: true, preview: true },
    result: {
      rewind: {
        rewindId: 'w1',
        runId: 'r1',
        preview: true,
        files: [
          {
            target: 'notes/a.md',
            change: 'modified',
            runVersion: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
            restoreVersion: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
            currentVersion: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
            status: 'planned',
          },
        ],
        commands: [],
        conversation: { leafId: 'e1' },
      },
    },
  },
  'settings.get': { params: { space: '/spaces/a', sessionId: 's1' }, result: { items: [item] } },
  'settings.set': {
    params: {
      level: 'space',
      space: '/spaces/a',
      key: 'prompts.base',
      value: '',
      expectedRevision: 1,
    },
    result: { item },
  },
  'settings.reset': { params: { level: 'application', key: 'prompts.append' }, result: { item } },
  'materials.list': {
    params: { space: '/spaces/a' },
    result: { materials: [material], revision: 'r1' },
  },
  'materials.add': {
    params: { path: '/books/ch3.pdf', id: 'ch3', title: 'Chapter 3', space: '/spaces/a' },
    result: { material, revision: 'r1' },
  },
  'materials.remove': { params: { id: 'ch3' }, result: { removed: true, revision: null } },
  'context.get': {
    params: { space: '/spaces/a' },
    result: { context: { body: 'Tides.', sources: ['a.md'], revision: '2' } },
  },
  'context.set': {
    params: { space: '/spaces/a', body: 'Tides.', sources: [], expectedRevision: null },
    result: { revision: '1' },
  },
  'context.build': {
    params: { space: '/spaces/a', buildId: 'b1', sources: ['intro.md'], instructions: 'tides' },
    result: { revision: '3', model: 'repa-offline', extractive: true, cut: [] },
  },
  'context.cancel': { params: { buildId: 'b1' }, result: { cancelled: true } },
  'login.start': {
    params: { provider: 'anthropic', type: 'api_key', loginId: 'login-1' },
    result: { connection: 'anthropic:auth-file' },
  },
  'login.answer': {
    params: { loginId: 'login-1', promptId: 'p1', value: 'sk-example' },
    result: { accepted: true },
  },
  'login.cancel': { params: { loginId: 'login-1' }, result: { cancelled: true } },
  'packages.list': {
    params: { space: '/spaces/a' },
    result: {
      packages: [{ source: '/pkgs/cards', level: 'application', filtered: false }],
      resources: [{ kind: 'tool', name: 'card', source: '/pkgs/cards', level: 'application' }],
      diagnostics: [{ kind: 'skill', severity: 'warning', message: 'no description' }],
    },
  },
  'packages.add': {
    params: { source: '/pkgs/cards' },
    result: {
      package: { source: '/pkgs/cards', level: 'application', filtered: false },
      added: true,
    },
  },
  'packages.remove': {
    params: { source: '/pkgs/cards', level: 'space', space: '/spaces/a' },
    result: { removed: true, activeRuns: 0 },
  },
  'login.logout': {
    params: { provider: 'anthropic', space: '/spaces/a' },
    result: { removed: true, next: choice },
  },
  'models.next': {
    params: { space: '/spaces/a', sessionId: 's1' },
    result: { choice },
  },
  'models.list': {
    params: { all: true },
    result: {
      models: [
        {
          id: 'anthropic/claude-sonnet-4-5',
          provider: 'anthropic',
          name: 'Claude Sonnet 4.5',
          contextWindow: 200_000,
          reasoning: true,
          credentials: true,
          credentialSource: 'environment',
          credentialVariable: 'ANTHROPIC_API_KEY',
          default: true,
        },
      ],
      default: 'anthropic/claude-sonnet-4-5',
    },
  },
  doctor: {
    params: {},
    result: {
      models: { default: 'repa-offline', offline: true, available: [] },
      pi: {
        agentDir: '/home/a/.pi/agent',
        exists: true,
        authJson: false,
        modelsJson: false,
        keyVariables: ['ANTHROPIC_API_KEY'],
        keyVariablesSet: [],
      },
      sandbox: { bwrap: '/usr/bin/bwrap', ready: true },
    },
  },
  ...studyDraftExamples(run, sha),
  ...studyQuizExamples(run, sha),
  ...studyCheckExamples(run),
  ...studyExamples,
  ...approvalExamples,
};
