import type { ApprovalAsk, ToolApprovals } from '@repa/content/tools';
import { type ApprovalAnswer, type EditsMode, RepaError, type RunEvent } from '@repa/protocol';

/** A save or command waiting for the learner, and how to end its wait. */
interface Waiting {
  ask: ApprovalAsk;
  settle(error?: RepaError): void;
}

/** How a refusal reads to the model: what was refused, and the learner's reason when given. */
function refusal(ask: ApprovalAsk, reason: string | undefined): RepaError {
  const what =
    ask.kind === 'save'
      ? `the change to ${ask.targets.join(', ')}`
      : `running the command \`${ask.command}\``;
  const why = reason?.trim() ? `: "${reason.trim()}"` : ' (no reason given)';
  return new RepaError('edit_refused', `The learner refused ${what}${why}. Nothing was changed.`, {
    details: { toolName: ask.toolName, ...(reason?.trim() ? { reason: reason.trim() } : {}) },
  });
}

/**
 * One run's approvals (`tools.edits`, spec R36, R37): with `ask`, each save or command of a tool
 * emits an `approval-request` and waits for {@link answer}; the first answer wins, is emitted as
 * `approval-answered` and decides; "yes to all" (`approve-run`) approves the rest of the run
 * without asking. A cancel of the call, or the run's end, ends the wait: nothing is written.
 */
export class RunApprovals implements ToolApprovals {
  readonly #mode: EditsMode;
  readonly #emit: (event: RunEvent) => void;
  readonly #waiting = new Map<string, Waiting>();
  #approvedForRun = false;
  #count = 0;

  constructor(mode: EditsMode | undefined, emit: (event: RunEvent) => void) {
    this.#mode = mode ?? 'auto';
    this.#emit = emit;
  }

  /** Whether the run's saves and commands wait for the learner. */
  asking(): boolean {
    return this.#mode === 'ask';
  }

  /** Whether the run may change no file (`tools.edits` `off`): commands see the space read-only. */
  readOnly(): boolean {
    return this.#mode === 'off';
  }

  /** True while a save or command waits for an answer. */
  get waiting(): boolean {
    return this.#waiting.size > 0;
  }

  /** Waits for the learner's answer to `ask`; throws `edit_refused` or `cancelled` when not approved. */
  approve(ask: ApprovalAsk, signal: AbortSignal | undefined): Promise<void> {
    const approvalId = `approval-${++this.#count}`;
    const subject = { approvalId, toolCallId: ask.toolCallId, toolName: ask.toolName };
    const what = ask.kind === 'save' ? { targets: ask.targets } : { command: ask.command };
    if (this.#approvedForRun) {
      this.#emit({
        type: 'approval-answered',
        ...subject,
        ...what,
        decision: 'approved',
        covered: true,
      });
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(cancelledWait());
    const shown =
      ask.kind === 'save' ? { targets: ask.targets, diffs: ask.diffs } : { command: ask.command };
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => settle(cancelledWait());
      const settle = (error?: RepaError) => {
        signal?.removeEventListener('abort', onAbort);
        this.#waiting.delete(approvalId);
        if (error) reject(error);
        else resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(approvalId, { ask, settle });
      this.#emit({ type: 'approval-request', ...subject, ...shown });
    });
  }

  /** Answers a waiting request; false when none waits under `approvalId` (answered, or never asked). */
  answer(approvalId: string, answer: ApprovalAnswer, reason?: string): boolean {
    const waiting = this.#waiting.get(approvalId);
    if (waiting === undefined) return false;
    const { ask } = waiting;
    const subject = { approvalId, toolCallId: ask.toolCallId, toolName: ask.toolName };
    const what = ask.kind === 'save' ? { targets: ask.targets } : { command: ask.command };
    if (answer === 'refuse') {
      const given = reason?.trim() ? { reason: reason.trim() } : {};
      this.#emit({ type: 'approval-answered', ...subject, ...what, decision: 'refused', ...given });
      waiting.settle(refusal(ask, reason));
      return true;
    }
    const forRun = answer === 'approve-run' ? { forRun: true } : {};
    this.#emit({ type: 'approval-answered', ...subject, ...what, decision: 'approved', ...forRun });
    waiting.settle();
    if (answer === 'approve-run') {
      this.#approvedForRun = true;
      // "Yes to all" covers the saves and commands already waiting beside this one, too.
      for (const [otherId, other] of [...this.#waiting]) {
        const { ask: covered } = other;
        const also =
          covered.kind === 'save' ? { targets: covered.targets } : { command: covered.command };
        this.#emit({
          type: 'approval-answered',
          approvalId: otherId,
          toolCallId: covered.toolCallId,
          toolName: covered.toolName,
          ...also,
          decision: 'approved',
          covered: true,
        });
        other.settle();
      }
    }
    return true;
  }
}

function cancelledWait(): RepaError {
  return new RepaError(
    'cancelled',
    'The run was cancelled while the change waited for approval; nothing was written.',
  );
}
