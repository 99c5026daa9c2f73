import {
  isTerminalRunStatus,
  type RepaClient,
  RepaError,
  type RunInfo,
  type SessionInfo,
} from '@repa/protocol';
import { usageError } from './usage-error.js';

/** The one candidate whose id starts with `prefix`; `not_found` or a usage error when ambiguous. */
function uniqueByPrefix<T>(
  kind: 'run' | 'session',
  prefix: string,
  candidates: readonly T[],
  idOf: (candidate: T) => string,
  list: string,
  missing = `No ${kind} id starts with '${prefix}'.`,
): T {
  const exact = candidates.find((candidate) => idOf(candidate) === prefix);
  if (exact) return exact;
  const matches = candidates.filter((candidate) => idOf(candidate).startsWith(prefix));
  if (matches.length === 1) return matches[0] as T;
  if (matches.length === 0) {
    throw new RepaError('not_found', missing, {
      fix: `List them with ${list}.`,
    });
  }
  const shown = matches.slice(0, 5).map(idOf).join(', ');
  throw usageError(
    `'${prefix}' matches ${matches.length} ${kind}s: ${shown}${matches.length > 5 ? ', …' : ''}.`,
    `Type more of the ${kind} id.`,
  );
}

/** The session of a space whose id is `idOrPrefix` or the only one starting with it. */
export async function resolveSession(
  client: RepaClient,
  space: string,
  idOrPrefix: string,
): Promise<SessionInfo> {
  const { sessions } = await client.request('session.list', { space });
  return uniqueByPrefix(
    'session',
    idOrPrefix,
    sessions,
    (session) => session.sessionId,
    `repa sessions list --space ${space}, or leave out --session`,
    `Space ${space} has no session ${idOrPrefix}.`,
  );
}

/** The run whose id is `idOrPrefix` or the only one (among the newest 1000) starting with it. */
export async function resolveRun(client: RepaClient, idOrPrefix: string): Promise<RunInfo> {
  try {
    return (await client.request('run.get', { runId: idOrPrefix })).run;
  } catch (error) {
    if (!(RepaError.isInstance(error) && error.code === 'not_found')) throw error;
  }
  const { runs } = await client.request('run.list', { limit: 1000 });
  return uniqueByPrefix('run', idOrPrefix, runs, (run) => run.runId, 'repa runs list --all');
}

/**
 * The run `idOrPrefix` names; left out (`''`), the most recent run of `space` (a steer or
 * follow-up message counts as the run it went into), said on `stderr` with its status when it has
 * not ended.
 */
export async function resolveRunOrLatest(
  stderr: NodeJS.WritableStream,
  client: RepaClient,
  idOrPrefix: string,
  space: string,
): Promise<RunInfo> {
  if (idOrPrefix !== '') return resolveRun(client, idOrPrefix);
  const { runs } = await client.request('run.list', { space, limit: 50 });
  const target = runs[0]?.targetRunId;
  const latest =
    runs.find((run) => run.targetRunId === undefined) ??
    (target === undefined ? undefined : (await client.request('run.get', { runId: target })).run);
  if (latest === undefined) {
    throw new RepaError('not_found', `Space ${space} has no runs yet.`, {
      fix: 'Start one with repa run "…" or repa chat, or name a run of another space by its id.',
    });
  }
  const text = latest.input.type === 'text' ? latest.input.text.replace(/\s+/g, ' ') : '';
  const excerpt = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  const status = isTerminalRunStatus(latest.status) ? '' : ` (${latest.status})`;
  stderr.write(
    `repa: the most recent run in ${space}: ${latest.runId}${excerpt ? ` “${excerpt}”` : ''}${status}\n`,
  );
  return latest;
}
