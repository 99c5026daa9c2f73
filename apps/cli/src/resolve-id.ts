import {
  isTerminalRunStatus,
  type RepaClient,
  RepaError,
  type RunInfo,
  type SessionInfo,
} from '@repa/protocol';
import { type CliContext, spaceOf } from './cli-context.js';
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

/** The help of `--space` for a command whose RUN_ID may be left out ({@link resolveRunOrLatest}). */
export const LATEST_RUN_SPACE_HELP = `  --space DIR      without RUN_ID: the space whose most recent run is meant (default: the
                   space you are in)`;

/** The help of a RUN_ID that may be left out ({@link resolveRunOrLatest}). */
export const RUN_ID_OR_LATEST_HELP = `  RUN_ID           the run (or its first characters); left out, the space's most recent run
                   (named on stderr)`;

/** The arguments and options help of a command that takes one run and only `--space`. */
export const RUN_ID_AND_SPACE_HELP = `Arguments:
${RUN_ID_OR_LATEST_HELP}

Options:
${LATEST_RUN_SPACE_HELP}`;

/**
 * The run `typed` names; left out (`''`), the most recent run of the space `--space` names (else
 * the one the command was typed in), said on stderr with its status when it has not ended. Every
 * `repa runs` command that takes one run finds it so.
 */
export async function resolveRunOrLatest(
  context: CliContext,
  client: RepaClient,
  typed: string,
  spaceOption: string | undefined,
): Promise<RunInfo> {
  if (typed !== '') return resolveRun(client, typed);
  const space = spaceOf(context, spaceOption);
  const { run } = await named(client.request('run.resolve', { run: 'latest', space }));
  const text = run.input.type === 'text' ? run.input.text.replace(/\s+/g, ' ') : '';
  const excerpt = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  const status = isTerminalRunStatus(run.status) ? '' : ` (${run.status})`;
  context.stderr.write(
    `repa: the most recent run in ${space}: ${run.runId}${excerpt ? ` “${excerpt}”` : ''}${status}\n`,
  );
  return run;
}
