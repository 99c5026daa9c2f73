import { type HistoryItem, parseToolErrorText, type RunInfo } from '@repa/protocol';
import { runModelOf } from './run-model.js';
import { type Block, markToolError, type RunView } from './run-views.js';

/**
 * A session's saved history as the turns the live view shows (spec R27 items, grouped by the run
 * each belongs to): the request, then what the run did in order (context given, file-change
 * notices, text, tool lines with their targets, receipts and diffs, retried calls, compaction), its
 * status, error and model from the run's record. Items written before runs were marked in the
 * history are grouped from one request to the next.
 */
export function historyTurns(items: readonly HistoryItem[], runs: readonly RunInfo[]): RunView[] {
  const records = new Map(runs.map((run) => [run.runId, run]));
  const turns: RunView[] = [];
  const replies = new Map<RunView, HistoryItem[]>();
  let unmarked = 0;
  let current: RunView | undefined;
  for (const item of items) {
    const key = item.runId ?? `history-${unmarked + (item.kind === 'user' ? 1 : 0)}`;
    if (item.runId === undefined && item.kind === 'user') unmarked += 1;
    if (current?.runId !== key) {
      current = emptyTurn(key, records.get(key));
      turns.push(current);
      replies.set(current, []);
    }
    addItem(current, item, records.get(key), runs);
    if (item.kind === 'assistant') replies.get(current)?.push(item);
  }
  for (const [turn, answers] of replies) settle(turn, answers, records.get(turn.runId));
  return turns;
}

/** A turn before its items: what the run's record says of it, if the ledger still has it. */
function emptyTurn(key: string, run: RunInfo | undefined): RunView {
  return {
    runId: key,
    sessionId: run?.sessionId ?? '',
    prompt: run?.resumeOf ? run.input.text : '',
    status: run?.status ?? 'succeeded',
    error: run?.error,
    blocks: [],
    lastSeq: 0,
    delivery: run?.delivery ?? 'new',
    model: run ? runModelOf(run) : undefined,
    citations: undefined,
    resumed: run?.resumeOf !== undefined,
    images: run?.input.images?.length ?? 0,
    saved: true,
  };
}

/** The turns whose request was seen. */
const prompted = new WeakSet<RunView>();

/** Adds one history item to its turn, as the live view would have shown its events. */
function addItem(
  turn: RunView,
  item: HistoryItem,
  run: RunInfo | undefined,
  runs: readonly RunInfo[],
): void {
  switch (item.kind) {
    case 'user': {
      // The run's first request is its prompt (a resumption sends its original's when it never
      // entered the history); a later one was a steer or follow-up delivered into it.
      if (!prompted.has(turn)) {
        prompted.add(turn);
        turn.prompt = item.text;
        turn.resumed = false;
        return;
      }
      // A later request in the same run was a steer or follow-up delivered into it.
      const record = runs.find(
        (other) => other.targetRunId === run?.runId && other.input.text === item.text,
      );
      turn.blocks.push({
        kind: 'steer',
        followUp: record?.delivery === 'followUp',
        text: item.text,
        requestRunId: record?.runId ?? item.entryId,
      });
      return;
    }
    case 'assistant': {
      const text = item.toolCalls ? (item.answerText ?? '') : item.text;
      if (text !== '') turn.blocks.push({ kind: 'text', text });
      // A failed call Pi retried shows as its retry (`settle` drops it from the run's last reply).
      if (item.outcome === 'failed') {
        turn.blocks.push({
          kind: 'retry',
          attempt: 0,
          maxAttempts: 0,
          reason: 'the model call failed',
          entryId: item.entryId,
        });
      }
      for (const call of item.toolCalls ?? []) {
        turn.blocks.push({
          kind: 'tool',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          target: call.target ?? '',
          done: false,
          isError: false,
          receipts: [],
        });
      }
      if (item.citations) turn.citations = item.citations;
      return;
    }
    case 'tool-result': {
      const tool = turn.blocks.find(
        (block): block is Extract<Block, { kind: 'tool' }> =>
          block.kind === 'tool' && block.toolCallId === item.toolCallId,
      );
      if (!tool) return;
      tool.done = true;
      tool.isError = item.isError === true;
      tool.receipts = item.receipts ?? [];
      tool.diffs = item.diffs ?? [];
      if (item.operationId) tool.operationId = item.operationId;
      if (item.isError) markToolError(tool, parseToolErrorText(item.text));
      return;
    }
    case 'context-snapshot':
      turn.blocks.push({
        kind: 'context',
        revision: item.revision ?? '',
        sources: item.sources ?? [],
      });
      return;
    case 'file-change-notice':
      turn.blocks.push({ kind: 'changes', changes: item.changes ?? [], text: item.text });
      return;
    case 'compaction-summary':
    case 'branch-summary':
      turn.blocks.push({
        kind: 'compaction',
        phase: 'end',
        summary: item.text,
        branch: item.kind === 'branch-summary',
      });
      return;
  }
}

/**
 * The end of a turn: a failed reply before a later one of the same run was a call Pi retried; the
 * last reply's failure is the run's (its status line says it). The status is the run's record's,
 * else the last reply's outcome.
 */
function settle(turn: RunView, answers: HistoryItem[], run: RunInfo | undefined): void {
  const last = answers.at(-1);
  if (last?.outcome === 'failed') {
    turn.blocks = turn.blocks.filter(
      (block) => !(block.kind === 'retry' && block.entryId === last.entryId),
    );
  }
  if (!run && last?.outcome) turn.status = last.outcome;
  if (turn.prompt === '' && !turn.resumed) turn.prompt = run?.input.text ?? '';
}
