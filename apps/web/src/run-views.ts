import {
  type FileChange,
  type RunEvent,
  type RunEventNotification,
  type RunInfo,
  type RunUpdate,
  type SaveDiff,
  type SaveReceipt,
  toolCallTarget,
  toolErrorMessage,
} from '@repa/protocol';
import { type RunModelView, runModelOf } from './run-model.js';

// The page's views of the runs it shows, and the pure steps that change them: the conversation's
// turns show them, live-runs.ts keeps them up to date, history-turns.ts builds them from history.

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
      /** What went wrong, as the tool said it (without its code and fix). */
      error?: string;
      /** What to do about it. */
      fix?: string;
      /** The save was refused as a protected place (design R69): nothing was written. */
      refused?: boolean;
      /** A long call's pages done of the whole while it runs (design R122: a document's first read). */
      progress?: { done: number; total: number };
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
  | { kind: 'steer'; followUp: boolean; text: string; requestRunId: string }
  | {
      /** A save or command that waits (or waited) for the learner (`tools.edits` `ask`). */
      kind: 'approval';
      approvalId: string;
      toolName: string;
      targets: string[];
      /** The exact change of every file of the save. */
      diffs: SaveDiff[];
      /** For `bash`: the command line. */
      command?: string | undefined;
      /** Absent while it waits (or when the run ended first). */
      decision?: 'approved' | 'refused' | undefined;
      reason?: string | undefined;
      /** Approved with the rest of the run ("yes to all"), or by such an earlier answer. */
      forRun?: boolean | undefined;
    };

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
  /** The documents attached to the request (space paths or material identities). */
  attachments?: string[];
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
    attachments: run.input.attachments?.map((attachment) => attachment.path) ?? [],
  };
}

/** A new view of a steer (or follow-up) request the daemon accepted, sent with `text`. */
export function steerViewOf(run: RunInfo, text: string): SteerView {
  return {
    runId: run.runId,
    targetRunId: run.targetRunId ?? '',
    followUp: run.delivery === 'followUp',
    text,
    status: run.status,
    error: run.error,
  };
}

/** Whether a run is waiting in its session's queue (accepted, not started). */
export function isQueued(view: RunView): boolean {
  return view.status === 'accepted' && view.delivery === 'queue';
}

/**
 * Marks a tool's block with its error, live (`tool-end`'s error) or from history (the result's
 * text, read back with `parseToolErrorText`): the same words and fix either way.
 */
export function markToolError(
  tool: Extract<Block, { kind: 'tool' }>,
  error: { code: string; message: string; fix?: string | undefined },
): void {
  // The tool's text starts with its code and ends with its fix: shown apart, each once.
  tool.error = toolErrorMessage(error);
  if (error.fix) tool.fix = error.fix;
  tool.refused = error.code === 'protected_path';
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
    case 'tool-progress': {
      const tool = view.blocks.find(
        (block) => block.kind === 'tool' && block.toolCallId === event.toolCallId,
      );
      if (tool?.kind === 'tool' && !tool.done) {
        tool.progress = { done: event.done, total: event.total };
      }
      break;
    }
    case 'tool-end': {
      const tool = view.blocks.find(
        (block) => block.kind === 'tool' && block.toolCallId === event.toolCallId,
      );
      if (tool?.kind === 'tool') {
        tool.done = true;
        delete tool.progress;
        tool.isError = event.isError;
        tool.receipts = event.receipts ?? [];
        tool.diffs = event.diffs ?? [];
        if (event.operationId) tool.operationId = event.operationId;
        if (event.error) markToolError(tool, event.error);
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
    case 'approval-request':
      view.blocks.push({
        kind: 'approval',
        approvalId: event.approvalId,
        toolName: event.toolName,
        targets: event.targets ?? [],
        diffs: event.diffs ?? [],
        command: event.command,
      });
      break;
    case 'approval-answered': {
      const asked = view.blocks.find(
        (block) => block.kind === 'approval' && block.approvalId === event.approvalId,
      );
      const answer = {
        decision: event.decision,
        reason: event.reason,
        forRun: event.forRun === true || event.covered === true,
      };
      // One an earlier "yes to all" approved was never asked: it shows as approved.
      if (asked?.kind === 'approval') Object.assign(asked, answer);
      else {
        const { approvalId, toolName, command } = event;
        const targets = event.targets ?? [];
        view.blocks.push({
          kind: 'approval',
          approvalId,
          toolName,
          targets,
          diffs: [],
          command,
          ...answer,
        });
      }
      break;
    }
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

/** Applies what a run's follower yielded: an event, or the run as the daemon has it after a reconnection. */
export function applyRunUpdate(view: RunView, update: RunUpdate): void {
  if (update.kind === 'event') {
    applyRunEvent(view, update.notification);
    return;
  }
  view.status = update.run.status;
  view.error = update.run.error;
}

/** The status an update brings: a `status` event's, or the run's after a reconnection; else none. */
export function statusOfUpdate(update: RunUpdate): string | undefined {
  if (update.kind === 'resumed') return update.run.status;
  const { event } = update.notification;
  return event.type === 'status' ? event.status : undefined;
}

/**
 * `views` (Preact state, never changed in place) with the view of `runId` replaced by a copy, its
 * blocks copied too, that `change` changed.
 */
export function changeRun(
  views: readonly RunView[],
  runId: string,
  change: (view: RunView) => void,
): RunView[] {
  return views.map((view) => {
    if (view.runId !== runId) return view;
    const copy = { ...view, blocks: view.blocks.map((block) => ({ ...block })) };
    change(copy);
    return copy;
  });
}

/** `items` with `item` last, in place of an earlier item of the same run. */
export function putLast<T extends { runId: string }>(items: readonly T[], item: T): T[] {
  return [...items.filter((known) => known.runId !== item.runId), item];
}

/** `views` with the place `run` has now in its session's queue, on its view if it is still queued. */
export function withQueuePosition(views: readonly RunView[], run: RunInfo): RunView[] {
  return views.map((view) =>
    view.runId === run.runId && isQueued(view)
      ? { ...view, queuePosition: run.queuePosition }
      : view,
  );
}

/** `steers` with the status (and error) of the steer request `runId`. */
export function withSteerStatus(
  steers: readonly SteerView[],
  runId: string,
  status: string,
  error?: SteerView['error'],
): SteerView[] {
  return steers.map((steer) => (steer.runId === runId ? { ...steer, status, error } : steer));
}
