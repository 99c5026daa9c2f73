import type { FileChange, RewindResult, SaveDiff, SaveReceipt } from '@repa/protocol';
import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { type AnswerApproval, ApprovalView } from './approval-view.js';
import { CitationChips } from './citation-chips.js';
import { summaryParts } from './compaction-summary.js';
import { FileLink } from './file-links.js';
import { renderMarkdown } from './markdown.js';
import { DiffView, type Rewind, UndoButton } from './rewind-view.js';
import { RunModelLabel } from './run-model.js';
import { isActive, isResumable, isRetryable } from './run-status.js';
import { type Block, isQueued, type RunView, type SteerView } from './run-views.js';

/** How the offline responder marks its answers (it never passes for a language model). */
const OFFLINE_MARK = '[repa-offline] ';

function Markdown({ text }: { text: string }) {
  // The offline responder's mark as words, not as its raw prefix.
  const offline = text.startsWith(OFFLINE_MARK);
  // While the mark itself streams in, nothing of it is shown.
  const body = offline
    ? text.slice(OFFLINE_MARK.length)
    : OFFLINE_MARK.startsWith(text)
      ? ''
      : text;
  // Rendered again only when the text changed (not when the turns around it did).
  const rendered = useMemo(() => ({ __html: renderMarkdown(body) }), [body]);
  return html`${offline ? html`<p class="offline-label">Repa's offline responder (no language model) answers from your notes:</p>` : ''}<div class="markdown" dangerouslySetInnerHTML=${rendered}></div>`;
}

/** A compaction's summary for people: rendered, with the files it names as links to the reader. */
function CompactionSummary({ summary }: { summary: string }) {
  const parts = useMemo(() => summaryParts(summary), [summary]);
  const files = (label: string, kind: string, paths: string[]) =>
    paths.length > 0
      ? html`<p class=${`meta ${kind}`}>${label}: ${paths.map((path, index) => html`${index > 0 ? ', ' : ''}<${FileLink} place=${{ path }} />`)}</p>`
      : '';
  return html`<details><summary>Summary</summary>
    <${Markdown} text=${parts.text} />
    ${files('Files read', 'files-read', parts.read)}
    ${files('Files changed', 'files-changed', parts.changed)}
  </details>`;
}

function Receipt({ receipt, diff }: { receipt: SaveReceipt; diff?: SaveDiff | undefined }) {
  // The versions (content hashes) are for the curious: on hover, not in the sentence.
  const versions = `version ${receipt.previousVersion ?? 'none'} → ${receipt.version}`;
  return html`<li class="receipt" title=${versions}>
    Saved <${FileLink} place=${{ path: receipt.target }} /> (${receipt.bytes} bytes${
      receipt.previousVersion === null ? ', new file' : ''
    })
    ${diff ? html`<${DiffView} diff=${diff} />` : ''}
  </li>`;
}

function Changes({ changes, text }: { changes: FileChange[]; text?: string | undefined }) {
  return html`<div class="notice" role="note">
    <strong>Files changed outside the conversation:</strong>
    ${changes.length === 0 && text ? html`<details><summary>What the model was told</summary><pre>${text}</pre></details>` : ''}
    <ul>
      ${changes.map(
        (change) => html`<li>
          <${FileLink} place=${{ path: change.target }} /> ${change.kind}
          ${change.diff ? html`<details><summary>Diff</summary><pre>${change.diff}</pre></details>` : ''}
          ${change.hint ? html`<span class="hint"> ${change.hint}</span>` : ''}
        </li>`,
      )}
    </ul>
  </div>`;
}

/** How a run's view undoes saves: the daemon's rewind, and what to do after one. */
interface Undoing {
  runId: string;
  rewind: Rewind;
  onDone: (result: RewindResult) => void;
}

/** The tools whose target is a file (a link to the reader); others name a pattern or a folder. */
const FILE_TOOLS = new Set(['read', 'write', 'edit']);

/** How a run's view answers its approval requests (absent: they are only shown). */
interface Approving {
  runId: string;
  active: boolean;
  onAnswer?: AnswerApproval | undefined;
}

/**
 * A long tool call's progress (design R122), e.g. `Reading scan.pdf: 3 of 12 pages`: a bar whose
 * value a screen reader reads on demand (the words beside it are hidden from it, so the polite live
 * message does not repeat every page). The run's Cancel, just below, stops it.
 */
function ToolProgress({ block }: { block: Extract<Block, { kind: 'tool' }> }) {
  const { done, total } = block.progress ?? { done: 0, total: 0 };
  const doing = block.toolName === 'read' ? 'Reading' : block.toolName;
  const value = `${done} of ${total} page${total === 1 ? '' : 's'}`;
  const share = total === 0 ? 0 : Math.min(100, (done * 100) / total);
  return html`<div class="tool-progress">
    <span class="progress-words" aria-hidden="true">${doing} ${block.target}: ${value}</span>
    <div class="progress-bar" role="progressbar" aria-label=${`${doing} ${block.target}`} aria-valuemin="0" aria-valuemax=${total} aria-valuenow=${done} aria-valuetext=${value}>
      <div class="progress-fill" style=${`width: ${share}%`}></div>
    </div>
  </div>`;
}

function BlockView({
  block,
  undo,
  approving,
}: {
  block: Block;
  undo?: Undoing | undefined;
  approving?: Approving | undefined;
}) {
  switch (block.kind) {
    case 'approval':
      return html`<${ApprovalView} block=${block} runId=${approving?.runId ?? ''} active=${approving?.active ?? false} onAnswer=${approving?.onAnswer} />`;
    case 'text':
      return html`<${Markdown} text=${block.text} />`;
    case 'tool':
      return html`<div class=${`tool ${block.refused ? 'tool-refused' : block.isError ? 'tool-error' : ''}`}>
        <span class="tool-name">${block.toolName}</span>
        ${block.target ? (FILE_TOOLS.has(block.toolName) && !block.refused ? html` <${FileLink} place=${{ path: block.target }} />` : html` <code>${block.target}</code>`) : ''}
        <span class="tool-state">${block.done ? (block.refused ? ' refused: protected, nothing written' : block.isError ? ' failed' : ' done') : ' …'}</span>
        ${!block.done && block.progress && approving?.active ? html`<${ToolProgress} block=${block} />` : ''}
        ${block.error ? html`<div class="error-text">${block.error}${block.fix ? html`<span class="fix">Fix: ${block.fix}</span>` : ''}</div>` : ''}
        ${block.receipts.length > 0 ? html`<ul class="receipts">${block.receipts.map((receipt) => html`<${Receipt} receipt=${receipt} diff=${block.diffs?.find((diff) => diff.target === receipt.target)} />`)}</ul>` : ''}
        ${block.receipts.length > 0 && block.operationId && undo ? html`<${UndoButton} label="Undo this save" runId=${undo.runId} operationId=${block.operationId} rewind=${undo.rewind} onDone=${undo.onDone} />` : ''}
      </div>`;
    case 'changes':
      return html`<${Changes} changes=${block.changes} text=${block.text} />`;
    case 'compaction':
      return html`<div class="notice compaction" role="note">
        ${block.branch ? 'Summary of a branch left behind' : block.phase === 'start' ? 'Compacting the conversation' : 'Conversation compacted'}${
          block.tokensBefore ? ` (${block.tokensBefore} tokens before)` : ''
        }
        ${block.summary ? html`<${CompactionSummary} summary=${block.summary} />` : ''}
      </div>`;
    case 'retry':
      return html`<div class="notice retry" role="note">
        ${
          block.attempt > 0
            ? `Retrying the model call (${block.attempt}/${block.maxAttempts}): ${block.reason}`
            : 'A model call failed and was retried.'
        }
      </div>`;
    case 'context':
      return html`<div class="notice" role="note" title=${`revision ${block.revision}`}>
        Your learning context went with this request.
      </div>`;
    case 'steer':
      return html`<div class="message user steer" data-request-run=${block.requestRunId}>
        <span class="who">${block.followUp ? 'You followed up' : 'You steered'}</span>
        <p>${block.text}</p>
      </div>`;
  }
}

/** A steer sent into a run and not delivered yet: waiting, or refused because the run ended. */
function PendingSteer({
  steer,
  onCancel,
  onQueue,
}: {
  steer: SteerView;
  onCancel: (runId: string) => void;
  onQueue: (steer: SteerView) => void;
}) {
  const finished = steer.error?.code === 'run_finished';
  return html`<div class=${`message user steer steer-${steer.status}`} data-steer=${steer.runId}>
    <span class="who">${
      finished
        ? 'Not delivered'
        : steer.followUp
          ? 'Follow-up waiting for the reply to finish its work'
          : 'Steer waiting for the next step'
    }</span>
    <p>${steer.text}</p>
    ${
      steer.status === 'running'
        ? html`<button type="button" class="cancel-steer" onClick=${() => onCancel(steer.runId)}>Take back</button>`
        : finished
          ? html`<p class="meta">The reply ended before your message reached it.</p>
              <button type="button" class="queue-instead" onClick=${() => onQueue(steer)}>Queue it instead</button>`
          : steer.error
            ? html`<p class="meta">${steer.error.message}</p>`
            : ''
    }
  </div>`;
}

/**
 * One run: the request, what streamed (with the steers delivered into it), the steers still on their
 * way, its status or place in the queue, cancel and retry.
 */
export function RunItem({
  view,
  steers,
  onCancel,
  onRetry,
  onResume,
  onQueueSteer,
  onRewind,
  onRewound,
  onApprove,
}: {
  view: RunView;
  steers: SteerView[];
  onCancel: (runId: string) => void;
  onRetry: (runId: string) => void;
  /** Resumes an interrupted or failed run (absent: no Resume button). */
  onResume?: (runId: string) => void;
  onQueueSteer: (steer: SteerView) => void;
  /** Undo of the run's saves (absent: no Undo buttons). */
  onRewind?: Rewind;
  onRewound?: (result: RewindResult) => void;
  /** Answers the run's approval requests (absent: they are only shown). */
  onApprove?: AnswerApproval;
}) {
  const undo =
    onRewind && !isActive(view.status)
      ? { runId: view.runId, rewind: onRewind, onDone: onRewound ?? (() => {}) }
      : undefined;
  const saved = view.blocks.some((block) => block.kind === 'tool' && block.receipts.length > 0);
  const active = isActive(view.status);
  const queued = isQueued(view);
  const retryable = isRetryable(view.status);
  // A run of the ledger (not a reply older than the run records) can be retried and resumed.
  const known = !view.runId.startsWith('history-');
  const resumable = known && onResume && isResumable(view.status);
  const delivered = new Set(
    view.blocks.flatMap((block) => (block.kind === 'steer' ? [block.requestRunId] : [])),
  );
  const waiting = steers.filter(
    (steer) =>
      !delivered.has(steer.runId) && steer.status !== 'succeeded' && steer.status !== 'cancelled',
  );
  return html`<li class=${`turn${view.saved && retryable ? ' unfinished' : ''}`} data-run=${view.runId} data-status=${view.status} data-queued=${queued ? 'true' : undefined}>
    <div class="message user">
      <span class="who">${view.resumed ? 'You resumed' : 'You'}</span>
      <p>${view.resumed ? 'Continue from where the reply stopped.' : view.prompt}</p>
      ${view.attachments?.length ? html`<p class="meta attachments-sent">Attached: ${view.attachments.map((path, index) => html`${index > 0 ? ', ' : ''}<${FileLink} place=${{ path }} />`)}</p>` : ''}
      ${view.images ? html`<p class="meta images-sent">${view.images === 1 ? '1 image' : `${view.images} images`} sent with it</p>` : ''}
    </div>
    <div class="message assistant" aria-live=${active ? 'polite' : 'off'}>
      <span class="who">Repa</span>
      ${view.model ? html`<${RunModelLabel} view=${view.model} />` : ''}
      ${view.blocks.map((block) => html`<${BlockView} block=${block} undo=${undo} approving=${{ runId: view.runId, active, onAnswer: onApprove }} />`)}
      <${CitationChips} citations=${view.citations} />
      ${waiting.map((steer) => html`<${PendingSteer} key=${steer.runId} steer=${steer} onCancel=${onCancel} onQueue=${onQueueSteer} />`)}
      <p class=${`run-status status-${view.status}`}>
        <span class="status-label">${queued ? 'queued' : view.status}</span>
        ${
          queued
            ? html` — <span class="queue-position">${
                view.queuePosition === undefined
                  ? 'waiting for the runs before it'
                  : `position ${view.queuePosition}`
              }</span> in the queue`
            : ''
        }
        ${view.error ? html` — ${view.error.message}${view.error.fix ? ` ${view.error.fix}` : ''}` : ''}
      </p>
      ${active ? html`<button type="button" class="cancel" onClick=${() => onCancel(view.runId)}>${queued ? 'Remove from queue' : 'Cancel'}</button>` : ''}
      ${retryable && known ? html`<button type="button" class="retry" onClick=${() => onRetry(view.runId)}>Retry</button>` : ''}
      ${resumable ? html`<button type="button" class="resume" onClick=${() => onResume?.(view.runId)}>Resume</button>` : ''}
      ${undo && saved ? html`<${UndoButton} label="Undo this run" runId=${view.runId} rewind=${undo.rewind} onDone=${undo.onDone} offerConversation=${true} />` : ''}
    </div>
  </li>`;
}
