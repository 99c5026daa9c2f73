import { createInterface } from 'node:readline/promises';
import {
  type ApprovalAnswer,
  type RepaClient,
  RepaError,
  type RunApprovalAnsweredEvent,
  type RunApprovalRequestEvent,
} from '@repa/protocol';
import type { CliContext } from './cli-context.js';
import { onTerminal } from './consent.js';
import type { RunPrinter } from './run-printer.js';

/** The learner's answer to one approval request. */
export interface ApprovalReply {
  answer: ApprovalAnswer;
  /** With `refuse`: why (the model is told). */
  reason?: string;
}

/**
 * Asks the learner about one save or command (the request is already printed, `printer` prints
 * more); `signal` aborts when another client answered first.
 */
export type Approver = (
  request: RunApprovalRequestEvent,
  signal: AbortSignal,
  printer: RunPrinter,
) => Promise<ApprovalReply>;

/** The question under an approval request. */
export const APPROVAL_QUESTION =
  'Apply it? y = yes, n = no (n REASON tells the model why), a = yes to all for this run';

/** `y`, `yes`, `a`, `all`, `n`, `no`, `n REASON`; undefined for anything else. */
export function parseApprovalReply(line: string): ApprovalReply | undefined {
  const text = line.trim();
  if (/^(y|yes)$/i.test(text)) return { answer: 'approve' };
  if (/^(a|all)$/i.test(text)) return { answer: 'approve-run' };
  const refused = /^(n|no)\b[\s,:.-]*(.*)$/is.exec(text);
  if (!refused) return undefined;
  const reason = refused[2]?.trim();
  return { answer: 'refuse', ...(reason ? { reason } : {}) };
}

const NO_TERMINAL = 'There is no terminal to ask on, so the change was refused.';

/**
 * The approver of a request sent where nobody can be asked (off a terminal, `--json`): each
 * request is refused, the refusal printed with its code and fix.
 */
export const offTerminalApprover: Approver = async (_request, _signal, printer) => {
  const error = new RepaError('edit_refused', NO_TERMINAL, {
    fix: 'Run it on a terminal to approve changes, or let this run save without asking: repa run --edits auto.',
  });
  printer.note(`repa: ${error.message} (${error.code})`);
  printer.note(`Fix: ${error.fix}`);
  return { answer: 'refuse', reason: 'Nobody could approve it: Repa was not run on a terminal.' };
};

/**
 * The approver of a request this command sent (`repa run`, a retry, a resumption): on a terminal
 * it asks on stdin until the answer is one it knows; off one (or with `--json`) nobody can be
 * asked, and each request is refused.
 */
export function terminalApprover(context: CliContext): Approver {
  if (!onTerminal(context) || context.json) return offTerminalApprover;
  return async (_request, signal) => {
    const prompt = createInterface({ input: context.stdin, output: context.stdout });
    try {
      for (;;) {
        const line = await prompt.question(`${APPROVAL_QUESTION}: `, { signal });
        const reply = parseApprovalReply(line);
        if (reply) return reply;
      }
    } finally {
      prompt.close();
    }
  };
}

/**
 * Answers a followed run's approval requests, one question at a time, as `approver` says. Without
 * one (a run only watched: `runs follow`, another client's run in the chat) they are left to the
 * client that sent the run, or to the page. A request another client answers first is no longer
 * asked.
 */
export function approvalAnswers(
  client: RepaClient,
  printer: RunPrinter,
  approver: Approver | undefined,
): {
  request(runId: string, event: RunApprovalRequestEvent): void;
  answered(event: RunApprovalAnsweredEvent): void;
  end(): void;
} {
  const asking = new Map<string, AbortController>();
  let queue: Promise<void> = Promise.resolve();
  const answer = async (runId: string, event: RunApprovalRequestEvent, signal: AbortSignal) => {
    if (signal.aborted) return;
    if (approver === undefined) {
      printer.note('[repa] waiting for the client that sent it, or the page, to answer');
      return;
    }
    const reply = await approver(event, signal, printer);
    const params = { runId, approvalId: event.approvalId, ...reply };
    const result = await client.request('run.approve', params);
    if (!result.answered && result.approval.decision) {
      printer.note(`[repa] already ${result.approval.decision} by another client`);
    }
  };
  return {
    request(runId, event) {
      const controller = new AbortController();
      asking.set(event.approvalId, controller);
      queue = queue
        .then(() => answer(runId, event, controller.signal))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const failure = RepaError.fromUnknown(error);
          printer.note(`repa: ${failure.message} (${failure.code})`);
        })
        .finally(() => asking.delete(event.approvalId));
    },
    answered(event) {
      asking.get(event.approvalId)?.abort();
    },
    /** The run ended: nothing of it is asked any more. */
    end() {
      for (const controller of asking.values()) controller.abort();
    },
  };
}
