import {
  type ApprovalRecord,
  RepaError,
  type RunEvent,
  type V1Params,
  type V1Result,
} from '@repa/protocol';
import type { SessionHosts } from '../session-hosts.js';
import type { RunLedger } from './run-ledger.js';

/**
 * A run's approval record kept from its events (spec R37): each request and each answer is written
 * to the ledger as it happens, so a run interrupted while one waits keeps it (unanswered).
 */
export function approvalRecorder(ledger: RunLedger, runId: string): (event: RunEvent) => void {
  const records: ApprovalRecord[] = [];
  return (event) => {
    if (event.type !== 'approval-request' && event.type !== 'approval-answered') return;
    const now = new Date().toISOString();
    const { approvalId, toolCallId, toolName, targets, command } = event;
    let record = records.find((known) => known.approvalId === approvalId);
    if (record === undefined) {
      record = { approvalId, toolCallId, toolName, requestedAt: now };
      records.push(record);
    }
    Object.assign(record, targets ? { targets } : {}, command === undefined ? {} : { command });
    if (event.type === 'approval-answered') {
      const { decision, reason, forRun, covered } = event;
      Object.assign(record, { decision, answeredAt: now }, reason ? { reason } : {});
      Object.assign(record, forRun ? { forRun } : {}, covered ? { covered } : {});
    }
    ledger.recordApprovals(runId, records);
  };
}

/**
 * `run.approve`: answers the run's waiting request through its session's host. The first answer
 * decides; a later one (or one after the run ended) changes nothing and gets the record as it is.
 */
export async function answerApproval(
  parts: { ledger: RunLedger; hosts: SessionHosts },
  params: V1Params<'run.approve'>,
): Promise<V1Result<'run.approve'>> {
  const { ledger, hosts } = parts;
  const { runId, approvalId } = params;
  const recordOf = () => {
    const found = ledger.getRun(runId).approvals?.find((one) => one.approvalId === approvalId);
    if (found === undefined) {
      throw new RepaError('not_found', `Run ${runId} has no approval request ${approvalId}.`, {
        fix: 'Answer a request named by an `approval-request` event of this run.',
      });
    }
    return found;
  };
  const run = ledger.getRun(runId);
  if (recordOf().decision !== undefined) return { approval: recordOf(), answered: false };
  const host = await hosts.opened(run.space, run.sessionId);
  const answered = host?.answerApproval(runId, approvalId, params.answer, params.reason) ?? false;
  return { approval: recordOf(), answered };
}
