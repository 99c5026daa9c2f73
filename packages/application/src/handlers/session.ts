import { RepaError, type RunInfo } from '@repa/protocol';
import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { deleteSession } from '../session-deletes.js';
import type { HandlerParts } from './handler-parts.js';
import { isStudyRequest } from './study-runs.js';

/**
 * Whether a session's runs are all ones Repa started for the study loop (a draft, a quiz, a grade
 * of a quiz answer or a tutor check, spec R105, R109, R114): such a session is not a conversation.
 */
function isStudySession(runs: readonly RunInfo[]): boolean {
  return runs.length > 0 && runs.every(({ input: { text } }) => isStudyRequest(text));
}

/** The characters of one part of `session.export`: well inside a frame, however it is escaped. */
const EXPORT_PART_CHARS = 1_000_000;

/**
 * `session.*`: a space's Pi sessions. An untrusted space shows only the sessions Repa started
 * there (spec R13); a session's title is written through its host (one writer per file).
 */
export function sessionHandlers({
  appDirectory,
  trust,
  hosts,
  ledger,
  runs,
}: Pick<
  HandlerParts,
  'appDirectory' | 'trust' | 'hosts' | 'ledger' | 'runs'
>): NamespaceHandlers<'session'> {
  return {
    'session.create': async (params) => {
      const root = params.space;
      const session = await (await loadHost()).createSpaceSession(root, params.title);
      trust.addSession(root, session.sessionId);
      return { session };
    },
    'session.list': async (params) => {
      const root = params.space;
      const sessions = await (await loadHost()).listSpaceSessions(root);
      return { sessions: await trust.visibleSessions(root, sessions) };
    },
    'session.resolve': async (params) => ({
      session: await trust.findSession(params.space, params.session, (session) =>
        isStudySession(ledger.listRuns({ space: params.space, sessionId: session.sessionId })),
      ),
    }),
    'session.history': async (params) => {
      const root = params.space;
      return (await loadHost()).readSessionHistory(root, params.sessionId, appDirectory, {
        limit: params.limit,
        before: params.before,
      });
    },
    'session.rename': async (params) => {
      const root = params.space;
      const title = params.title.replace(/\s+/g, ' ').trim();
      if (title === '') {
        throw new RepaError('invalid_request', 'The title is blank.', { fix: 'Pass a title.' });
      }
      const host = await hosts.host(root, params.sessionId);
      host.setTitle(title);
      const sessions = await (await loadHost()).listSpaceSessions(root);
      const session = sessions.find((listed) => listed.sessionId === params.sessionId);
      if (!session) throw new RepaError('not_found', `Session ${params.sessionId} went away.`);
      return { session };
    },
    'session.compact': (params) => runs.compact(params),
    'session.subscribe': (params, connection) => runs.subscribeSession(params, connection),
    'session.unsubscribe': (params, connection) => runs.unsubscribeSession(params, connection),
    'session.export': async (params) => {
      const root = params.space;
      const text = await (await loadHost()).exportSession(root, params.sessionId, params.format, {
        runs: ledger.listRuns({ space: root, sessionId: params.sessionId, limit: 1000 }),
        host: () => hosts.host(root, params.sessionId),
      });
      const offset = params.offset ?? 0;
      const end = Math.min(text.length, offset + EXPORT_PART_CHARS);
      return {
        content: text.slice(offset, end),
        totalChars: text.length,
        ...(end < text.length ? { nextOffset: end } : {}),
      };
    },
    // `busy` while one of the session's runs is accepted or running.
    'session.delete': async (params) => {
      const root = params.space;
      const active = ledger
        .activeRuns()
        .find((run) => run.space === root && run.sessionId === params.sessionId);
      if (active || runs.isRunning(root, params.sessionId)) {
        throw new RepaError('busy', `Session ${params.sessionId} has an active run.`, {
          fix: `Wait for it to end or cancel it (repa runs cancel ${active?.runId ?? 'RUN_ID'}), then delete the session.`,
        });
      }
      return {
        sessionId: params.sessionId,
        runsRemoved: await deleteSession(root, params.sessionId, { ledger, hosts }),
      };
    },
  };
}
