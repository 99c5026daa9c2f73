import { RepaError, type RunInfo } from '@repa/protocol';
import { LATEST, uniqueByPrefix } from '../named-ids.js';
import type { RunLedger } from './run-ledger.js';

/**
 * The run `typed` names, by the one rule of every client (`run.resolve`): `latest`, the most recent
 * run of `where.space` (of its session `where.sessionId`, when given; a steer or follow-up message
 * is no run of its own: it counts as the run it went into); else a run id, or the first characters
 * of one among every run of the ledger.
 */
export function findRun(
  ledger: RunLedger,
  typed: string,
  where: { space?: string | undefined; sessionId?: string | undefined },
): RunInfo {
  if (typed !== LATEST) {
    return uniqueByPrefix(
      'run',
      typed,
      ledger.listRuns({ idPrefix: typed, limit: 1000 }),
      (run) => run.runId,
      () =>
        new RepaError('not_found', `No run id starts with '${typed}'.`, {
          fix: 'List them with repa runs list --all.',
          details: { run: typed },
        }),
    );
  }
  const { space, sessionId } = where;
  if (space === undefined) {
    throw new RepaError('invalid_request', '`latest` means the most recent run of a space.', {
      fix: 'Pass the space whose most recent run you mean, or name the run by its id.',
    });
  }
  const [latest] = ledger.listRuns({ space, sessionId, deliveries: false, limit: 1 });
  if (latest !== undefined) return latest;
  throw new RepaError(
    'not_found',
    sessionId === undefined
      ? `Space ${space} has no runs yet.`
      : `Session ${sessionId} of ${space} has no runs yet.`,
    {
      fix: 'Start one with repa run "…" or repa chat, or name a run of another space by its id.',
      details: { space, ...(sessionId === undefined ? {} : { sessionId }), run: typed },
    },
  );
}
