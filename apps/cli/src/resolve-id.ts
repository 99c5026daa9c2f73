import {
  isTerminalRunStatus,
  type RepaClient,
  RepaError,
  type RunInfo,
  type SessionInfo,
} from '@repa/protocol';
import { usageError } from './usage-error.js';

/**
 * What the daemon answers for an id the learner typed; a start that several ids share is a
 * mistake on the command line (a usage error, exit code 2), told as the daemon tells it.
 */
async function named<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (
      RepaError.isInstance(error) &&
      error.code === 'invalid_request' &&
      error.details?.candidates
    ) {
      throw usageError(error.message, error.fix);
    }
    throw error;
  }
}

/**
 * The session of a space that `typed` names, by the daemon's one rule (`session.resolve`): an id,
 * the first characters of one, or `latest` (`not_found` when the space has none).
 */
export async function resolveSession(
  client: RepaClient,
  space: string,
  typed: string,
): Promise<SessionInfo> {
  return (await named(client.request('session.resolve', { space, session: typed }))).session;
}

/** The session `typed` names (an id or its start), else the space's most recent one, if any. */
export async function sessionOrLatest(
  client: RepaClient,
  space: string,
  typed: string | undefined,
): Promise<SessionInfo | undefined> {
  if (typed) return resolveSession(client, space, typed);
  try {
    return await resolveSession(client, space, 'latest');
  } catch (error) {
    if (RepaError.isInstance(error) && error.code === 'not_found') return undefined;
    throw error;
  }
}

/**
 * The session a command works in: `typed` (an id or its start), else with `latest` the space's
 * most recent session, else a new one. Returns whether it was created.
 */
export async function sessionOf(
  client: RepaClient,
  space: string,
  typed: string | undefined,
  latest = true,
): Promise<{ sessionId: string; created: boolean }> {
  const existing = typed || latest ? await sessionOrLatest(client, space, typed) : undefined;
  if (existing) return { sessionId: existing.sessionId, created: false };
  const { session } = await client.request('session.create', { space });
  return { sessionId: session.sessionId, created: true };
}

/** The run `typed` names (an id or its start, among every run), by the daemon's `run.resolve`. */
export async function resolveRun(client: RepaClient, typed: string): Promise<RunInfo> {
  return (await named(client.request('run.resolve', { run: typed }))).run;
}

/**
 * The run `typed` names; left out (`''`), the most recent run of `space` (a steer or follow-up
 * message counts as the run it went into), said on `stderr` with its status when it has not ended.
 */
export async function resolveRunOrLatest(
  stderr: NodeJS.WritableStream,
  client: RepaClient,
  typed: string,
  space: string,
): Promise<RunInfo> {
  if (typed !== '') return resolveRun(client, typed);
  const { run } = await named(client.request('run.resolve', { run: 'latest', space }));
  const text = run.input.type === 'text' ? run.input.text.replace(/\s+/g, ' ') : '';
  const excerpt = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  const status = isTerminalRunStatus(run.status) ? '' : ` (${run.status})`;
  stderr.write(
    `repa: the most recent run in ${space}: ${run.runId}${excerpt ? ` “${excerpt}”` : ''}${status}\n`,
  );
  return run;
}
