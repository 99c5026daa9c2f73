import {
  type FileChange,
  type RewindResult,
  type RunEvent,
  type RunEventNotification,
  type RunInfo,
  type SaveDiff,
  type SaveReceipt,
  toolCallTarget,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { CitationChips } from './citation-chips.js';
import { FileLink } from './file-links.js';
import { renderMarkdown } from './markdown.js';
import { DiffView, type Rewind, UndoButton } from './rewind-view.js';
import { RunModelLabel, type RunModelView, runModelOf } from './run-model.js';

/** One thing a run showed, in the order it happened. */
export type Block =
  | { kind: 'text'; text: string }
  | {
      kind: 'tool';
      toolCallId: string;
      toolName: string;
      target: string;
      done: boolean;
      isError: boolean;
      receipts: SaveReceipt[];
      /** What each save changed (by target), and the save's operation id (for its Undo). */
      diffs?: SaveDiff[];
      operationId?: string;
      error?: string;
      /** The save was refused as a protected place (design R95): nothing was written. */
      refused?: boolean;
    }
  | { kind: 'changes'; changes: FileChange[]; text?: string }
  | {
      kind: 'compaction';
      phase: 'start' | 'end';
      tokensBefore?: number | undefined;
      /** From history: the summary that stands for the older conversation (or a left branch). */
      summary?: string;
      branch?: boolean;
    }
  | {
      kind: 'retry';
      /** Pi's attempt and budget; 0 when read back from history (which keeps neither). */
      attempt: number;
      maxAttempts: number;
      reason: string;
      entryId?: string;
    }
  | { kind: 'context'; revision: string; sources: string[] }
  | { kind: 'steer'; followUp: boolean; text: string; requestRunId: string };

/** What the page knows of one run it follows. */
export interface RunView {
  runId: string;
  sessionId: string;
  prompt: string;
  status: string;
  error?: { code: string; message: string; fix?: string | undefined } | undefined;
  blocks: Block[];
  lastSeq: number;
  /** How the request was delivered (`queue` waits behind the session's runs). */
  delivery: string;
  /** For a queued run not started yet: its place in the session's queue, from 1. */
  queuePosition?: number | undefined;
  /** The model and thinking level the run uses, decided when it was accepted. */
  model?: RunModelView | undefined;
  /** The answer's checked citations, once the run ended. */
  citations?: RunInfo['citations'];
  /** A resumption of an interrupted or failed run (it sends no request of its own). */
  resumed?: boolean;
  /** How many images the request carried. */
  images?: number;
  /** Read back from the session's history (not followed live). */
  saved?: boolean;
}

/** A `steer` (or `followUp`) request the page sent into a running run, until it is delivered. */
export interface SteerView {
  runId: string;
  targetRunId: string;
  /** A follow-up (given to the run after its current work) rather than a steer. */
  followUp?: boolean;
  text: string;
  status: string;
  error?: { code: string; message: string; fix?: string | undefined } | undefined;
}

/** A new view of a run the daemon reported. */
export function runViewOf(run: RunInfo): RunView {
  return {
    runId: run.runId,
    sessionId: run.sessionId,
    prompt: run.input.text,
    status: run.status,
    error: run.error,
    blocks: [],
    lastSeq: 0,
    delivery: run.delivery ?? 'new',
    queuePosition: run.queuePosition,
    model: runModelOf(run),
    citations: run.citations,
    resumed: run.resumeOf !== undefined,
    images: run.input.images?.length ?? 0,
  };
}

/** Whether a run is waiting in its session's queue (accepted, not started). */
export function isQueued(view: RunView): boolean {
  return view.status === 'accepted' && view.delivery === 'queue';
}

/** Applies one `run.event` to its view (events already seen are ignored). */
export function applyRunEvent(view: RunView, notification: RunEventNotification): void {
  if (notification.seq <= view.lastSeq) return;
  view.lastSeq = notification.seq;
  const event: RunEvent = notification.event;
  const last = view.blocks.at(-1);
  switch (event.type) {
    case 'status':
      view.status = event.status;
      if (event.status !== 'accepted') view.queuePosition = undefined;
      if (event.error) view.error = event.error;
      if (event.citations) view.citations = event.citations;
      break;
    case 'text-delta':
      if (last?.kind === 'text') last.text += event.delta;
      else view.blocks.push({ kind: 'text', text: event.delta });
      break;
    case 'tool-start':
      // A run joined while it ran may show this call already (from its saved history).
      if (
        view.blocks.some((block) => block.kind === 'tool' && block.toolCallId === event.toolCallId)
      )
        break;
      view.blocks.push({
        kind: 'tool',
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        target: toolCallTarget(event.args) ?? '',
        done: false,
        isError: false,
        receipts: [],
      });
      break;
    case 'tool-end': {
      const tool = view.blocks.find(
        (block) => block.kind === 'tool' && block.toolCallId === event.toolCallId,
      );
      if (tool?.kind === 'tool') {
        tool.done = true;
        tool.isError = event.isError;
        tool.receipts = event.receipts ?? [];
        tool.diffs = event.diffs ?? [];
        if (event.operationId) tool.operationId = event.operationId;
        if (event.error) {
          tool.error = event.error.message;
          tool.refused = event.error.code === 'protected_path';
        }
      }
      break;
    }
    case 'file-change-notice':
      view.blocks.push({ kind: 'changes', changes: event.changes });
      break;
    case 'compaction':
      view.blocks.push({
        kind: 'compaction',
        phase: event.phase,
        tokensBefore: event.tokensBefore,
      });
      break;
    case 'retry':
      view.blocks.push({
        kind: 'retry',
        attempt: event.attempt,
        maxAttempts: event.maxAttempts,
        reason: event.reason,
      });
      break;
    case 'context-snapshot':
      view.blocks.push({ kind: 'context', revision: event.revision, sources: event.sources });
      break;
    case 'steer-delivered':
    case 'follow-up-delivered':
      view.blocks.push({
        kind: 'steer',
        followUp: event.type === 'follow-up-delivered',
        text: event.text,
        requestRunId: event.requestRunId,
      });
      break;
    default:
      break; // prompt-sections (shown in the run list) and event types this page does not know.
  }
}

const ACTIVE = new Set(['accepted', 'running']);

/** Whether a run is still accepted or running. */
export function isActive(status: string): boolean {
  return ACTIVE.has(status);
}

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

function BlockView({ block, undo }: { block: Block; undo?: Undoing | undefined }) {
  switch (block.kind) {
    case 'text':
      return html`<${Markdown} text=${block.text} />`;
    case 'tool':
      return html`<div class=${`tool ${block.refused ? 'tool-refused' : block.isError ? 'tool-error' : ''}`}>
        <span class="tool-name">${block.toolName}</span>
        ${block.target ? (FILE_TOOLS.has(block.toolName) && !block.refused ? html` <${FileLink} place=${{ path: block.target }} />` : html` <code>${block.target}</code>`) : ''}
        <span class="tool-state">${block.done ? (block.refused ? ' refused: protected, nothing written' : block.isError ? ' failed' : ' done') : ' …'}</span>
        ${block.error ? html`<div class="error-text">${block.error}</div>` : ''}
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
        ${block.summary ? html`<details><summary>Summary</summary><pre>${block.summary}</pre></details>` : ''}
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
}) {
  const undo =
    onRewind && !isActive(view.status)
      ? { runId: view.runId, rewind: onRewind, onDone: onRewound ?? (() => {}) }
      : undefined;
  const saved = view.blocks.some((block) => block.kind === 'tool' && block.receipts.length > 0);
  const active = isActive(view.status);
  const queued = isQueued(view);
  const retryable = ['failed', 'cancelled', 'interrupted'].includes(view.status);
  // A run of the ledger (not a reply older than the run records) can be retried and resumed.
  const known = !view.runId.startsWith('history-');
  const resumable = known && onResume && ['failed', 'interrupted'].includes(view.status);
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
      ${view.images ? html`<p class="meta images-sent">${view.images === 1 ? '1 image' : `${view.images} images`} sent with it</p>` : ''}
    </div>
    <div class="message assistant" aria-live=${active ? 'polite' : 'off'}>
      <span class="who">Repa</span>
      ${view.model ? html`<${RunModelLabel} view=${view.model} />` : ''}
      ${view.blocks.map((block) => html`<${BlockView} block=${block} undo=${undo} />`)}
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
