import type { DatabaseSync } from 'node:sqlite';
import { isTerminalRunStatus, RepaError, type RunStatus } from '@repa/protocol';
import { runStatusSchema } from '@repa/protocol/schemas';
import type { Row } from './ledger-rows.js';
import { QUEUE_LIMIT, type RunRequest } from './run-request.js';

/** The statuses of a run not yet ended. */
export const ACTIVE: RunStatus[] = runStatusSchema.options.filter(
  (status) => !isTerminalRunStatus(status),
);

/**
 * Refuses a request its session cannot take now: `queue_full` for a queued one past the queue's
 * limit, `busy` for a new one while a run of the session is active.
 */
export function refuseUntakable(db: DatabaseSync, request: RunRequest): void {
  const delivery = request.delivery ?? 'new';
  if (delivery === 'queue') {
    const waiting = db
      .prepare(
        `SELECT COUNT(*) AS n FROM runs WHERE session_id = ? AND space = ? AND status = 'accepted' AND delivery = 'queue'`,
      )
      .get(request.sessionId, request.space) as Row;
    if (Number(waiting.n) >= QUEUE_LIMIT) {
      throw new RepaError(
        'queue_full',
        `Session ${request.sessionId} already has ${QUEUE_LIMIT} queued runs.`,
        { details: { limit: QUEUE_LIMIT } },
      );
    }
  } else if (delivery === 'new') {
    const active = db
      .prepare(
        `SELECT run_id FROM runs WHERE session_id = ? AND space = ? AND target_run_id IS NULL AND status IN (${ACTIVE.map(() => '?').join(',')}) LIMIT 1`,
      )
      .get(request.sessionId, request.space, ...ACTIVE) as Row | undefined;
    if (active) {
      throw new RepaError(
        'busy',
        `Session ${request.sessionId} has an active run ${active.run_id}.`,
        {
          details: { runId: active.run_id },
        },
      );
    }
  }
}
