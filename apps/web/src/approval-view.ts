import type { ApprovalAnswer } from '@repa/protocol';
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { DiffView } from './rewind-view.js';
import type { Block } from './run-views.js';

/** Answers a run's approval request (`run.approve`); resolves once the daemon has the answer. */
export type AnswerApproval = (
  runId: string,
  approvalId: string,
  answer: ApprovalAnswer,
  reason?: string,
) => Promise<void>;

/**
 * A save or command waiting for the learner (`tools.edits` `ask`), inline in its run: what it
 * changes with the exact diff, shown open, and Approve, Approve all in this run, Refuse (with an
 * optional reason told to the model); once answered (here or by another client), the answer.
 */
export function ApprovalView({
  block,
  runId,
  active,
  onAnswer,
}: {
  block: Extract<Block, { kind: 'approval' }>;
  runId: string;
  /** Whether the run is still active (an unanswered request of an ended run is not offered). */
  active: boolean;
  onAnswer?: AnswerApproval | undefined;
}) {
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const what = block.command
    ? html`wants to run <code>${block.command}</code>`
    : html`wants to change ${block.targets.join(', ')}`;
  const decided = block.decision;
  const answer = (choice: ApprovalAnswer) => {
    if (!onAnswer) return;
    setSending(true);
    const why = choice === 'refuse' && reason.trim() ? reason.trim() : undefined;
    void onAnswer(runId, block.approvalId, choice, why).finally(() => setSending(false));
  };
  const state = decided
    ? `${decided === 'approved' ? 'Approved' : 'Refused'}${block.forRun ? ' (all in this run)' : ''}${block.reason ? `: ${block.reason}` : ''}`
    : active
      ? 'Waiting for your approval; nothing is written until you approve.'
      : 'Not answered: the run ended, nothing was written.';
  return html`<section class=${`approval${decided ? ` approval-${decided}` : ''}`} data-approval=${block.approvalId} aria-label="Approve this change?">
    <p class="approval-title"><span class="tool-name">${block.toolName}</span> ${what}</p>
    ${block.diffs.map((diff) => html`<div class="approval-file"><code>${diff.target}</code><${DiffView} diff=${diff} open=${!decided} /></div>`)}
    <p class="approval-state">${state}</p>
    ${
      !decided && active && onAnswer
        ? html`<div class="approval-actions">
            <input type="text" class="approval-reason" aria-label="Why not (optional, told to the model)" placeholder="Why not? (optional, told to the model)" value=${reason} onInput=${(event: Event) => setReason((event.target as HTMLInputElement).value)} />
            <button type="button" class="approve" disabled=${sending} onClick=${() => answer('approve')}>Approve</button>
            <button type="button" class="approve-run" disabled=${sending} onClick=${() => answer('approve-run')}>Approve all in this run</button>
            <button type="button" class="refuse" disabled=${sending} onClick=${() => answer('refuse')}>Refuse</button>
          </div>`
        : ''
    }
  </section>`;
}
