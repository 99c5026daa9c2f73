import type { RunEvent, RunUpdate } from '@repa/protocol';
import { runInfo } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import {
  applyRunEvent,
  applyRunUpdate,
  changeRun,
  putLast,
  type RunView,
  runViewOf,
  statusOfUpdate,
  steerViewOf,
  withQueuePosition,
  withSteerStatus,
} from './run-views.js';

const V1 = 'a'.repeat(64);
const V2 = 'b'.repeat(64);

/** A view of run `r1`, running, nothing seen yet. */
function view(overrides: Partial<RunView> = {}): RunView {
  return { ...runViewOf(runInfo()), ...overrides };
}

/** Applies `events` to `target` as `run.event`s numbered from `from`. */
function apply(target: RunView, events: RunEvent[], from = 1): RunView {
  for (const [index, event] of events.entries()) {
    applyRunEvent(target, { runId: target.runId, sessionId: 's1', seq: from + index, event });
  }
  return target;
}

describe('runViewOf', () => {
  it('shows a queued request with its place, its images and no blocks yet', () => {
    const run = runInfo({
      status: 'accepted',
      delivery: 'queue',
      queuePosition: 2,
      input: { type: 'text', text: 'Summarise', images: [{ kind: 'file', path: 'a.png' }] },
    });
    expect(runViewOf(run)).toMatchObject({
      prompt: 'Summarise',
      status: 'accepted',
      delivery: 'queue',
      queuePosition: 2,
      images: 1,
      resumed: false,
      blocks: [],
      lastSeq: 0,
    });
    expect(runViewOf(runInfo({ resumeOf: 'r0' })).resumed).toBe(true);
  });
});

describe('applyRunEvent', () => {
  it('joins text deltas into one block until a tool call, then starts another', () => {
    const shown = apply(view(), [
      { type: 'text-delta', delta: 'The tide ' },
      { type: 'text-delta', delta: 'turns.' },
      { type: 'tool-start', toolCallId: 't1', toolName: 'read', args: { path: 'notes/a.md' } },
      { type: 'text-delta', delta: 'Done.' },
    ]);
    expect(shown.blocks.map((block) => block.kind)).toEqual(['text', 'tool', 'text']);
    expect(shown.blocks[0]).toEqual({ kind: 'text', text: 'The tide turns.' });
    expect(shown.blocks[1]).toMatchObject({ target: 'notes/a.md', done: false });
    expect(shown.lastSeq).toBe(4);
  });

  it('keeps a tool call’s latest progress while it runs, and none once it ended (design R122)', () => {
    const target = 'scan.pdf';
    const progress = (done: number) =>
      ({
        type: 'tool-progress',
        toolCallId: 't1',
        toolName: 'read',
        target,
        done,
        total: 12,
      }) as const;
    const shown = apply(view(), [
      { type: 'tool-start', toolCallId: 't1', toolName: 'read', args: { path: target } },
      progress(0),
      progress(3),
    ]);
    expect(shown.blocks[0]).toMatchObject({ progress: { done: 3, total: 12 } });
    apply(shown, [{ type: 'tool-end', toolCallId: 't1', toolName: 'read', isError: false }], 4);
    expect(shown.blocks[0]).toMatchObject({ done: true });
    expect(shown.blocks[0]).not.toHaveProperty('progress');
    // A late report of the ended call changes nothing.
    apply(shown, [progress(12)], 5);
    expect(shown.blocks[0]).not.toHaveProperty('progress');
  });

  it('ignores an event already seen (a seq at or below the last)', () => {
    const shown = apply(view(), [{ type: 'text-delta', delta: 'Once.' }]);
    apply(shown, [{ type: 'text-delta', delta: 'Once.' }], 1);
    expect(shown.blocks).toEqual([{ kind: 'text', text: 'Once.' }]);
  });

  it('shows a tool call once when a run joined from its history announces it again', () => {
    const start = { type: 'tool-start', toolCallId: 't1', toolName: 'edit', args: {} } as const;
    const shown = apply(view(), [start, start]);
    expect(shown.blocks).toHaveLength(1);
  });

  it('ends a tool line with its receipts, diffs and operation, and marks a protected save refused', () => {
    const receipt = {
      operationId: 'op1',
      target: 'notes/a.md',
      identity: 'repa:document/d1',
      previousVersion: V1,
      version: V2,
      bytes: 40,
    };
    const diff = { target: 'notes/a.md', added: 1, removed: 0 };
    const shown = apply(view(), [
      { type: 'tool-start', toolCallId: 't1', toolName: 'edit', args: { path: 'notes/a.md' } },
      { type: 'tool-start', toolCallId: 't2', toolName: 'write', args: { path: '.pi/x.ts' } },
      {
        type: 'tool-end',
        toolCallId: 't1',
        toolName: 'edit',
        isError: false,
        operationId: 'op1',
        receipts: [receipt],
        diffs: [diff],
      },
      {
        type: 'tool-end',
        toolCallId: 't2',
        toolName: 'write',
        isError: true,
        error: { code: 'protected_path', message: '.pi is protected.', fix: 'Save elsewhere.' },
      },
    ]);
    expect(shown.blocks[0]).toMatchObject({
      done: true,
      isError: false,
      receipts: [receipt],
      diffs: [diff],
      operationId: 'op1',
    });
    expect(shown.blocks[1]).toMatchObject({
      done: true,
      isError: true,
      error: '.pi is protected.',
      refused: true,
      receipts: [],
    });
  });

  it('drops the queue place once the run starts, and keeps the error and citations of its end', () => {
    const citations = [
      { path: 'notes/a.md', line: 3, verified: true },
    ] as unknown as RunView['citations'];
    const shown = apply(view({ status: 'accepted', delivery: 'queue', queuePosition: 1 }), [
      { type: 'status', status: 'accepted' },
    ]);
    expect(shown.queuePosition).toBe(1);
    apply(
      shown,
      [
        { type: 'status', status: 'running' },
        {
          type: 'status',
          status: 'failed',
          error: { code: 'model_error', message: 'Overloaded.', fix: 'Retry.' },
          citations,
        },
      ],
      2,
    );
    expect(shown).toMatchObject({
      status: 'failed',
      queuePosition: undefined,
      error: { code: 'model_error', message: 'Overloaded.', fix: 'Retry.' },
      citations,
    });
  });

  it('shows a delivered steer and follow-up in the run they reached, and nothing for a report', () => {
    const shown = apply(view(), [
      { type: 'steer-delivered', text: 'Shorter.', requestRunId: 'r2' },
      { type: 'follow-up-delivered', text: 'Then a quiz.', requestRunId: 'r3' },
      { type: 'prompt-sections', sections: [] },
    ]);
    expect(shown.blocks).toEqual([
      { kind: 'steer', followUp: false, text: 'Shorter.', requestRunId: 'r2' },
      { kind: 'steer', followUp: true, text: 'Then a quiz.', requestRunId: 'r3' },
    ]);
    expect(shown.lastSeq).toBe(3);
  });
});

describe('applyRunUpdate and statusOfUpdate', () => {
  it('takes the run as the daemon has it after a reconnection, its old error gone', () => {
    const shown = view({ error: { code: 'model_error', message: 'Old.' } });
    const resumed: RunUpdate = {
      kind: 'resumed',
      run: runInfo({ status: 'interrupted' }),
      afterSeq: 0,
    };
    applyRunUpdate(shown, resumed);
    expect(shown.status).toBe('interrupted');
    expect(shown.error).toBeUndefined();
    expect(statusOfUpdate(resumed)).toBe('interrupted');
  });

  it('applies an event, and says a status only for a status event', () => {
    const text: RunUpdate = {
      kind: 'event',
      notification: {
        runId: 'r1',
        sessionId: 's1',
        seq: 1,
        event: { type: 'text-delta', delta: 'Hi' },
      },
    };
    const shown = view();
    applyRunUpdate(shown, text);
    expect(shown.blocks).toEqual([{ kind: 'text', text: 'Hi' }]);
    expect(statusOfUpdate(text)).toBeUndefined();
    const ended: RunUpdate = {
      kind: 'event',
      notification: {
        runId: 'r1',
        sessionId: 's1',
        seq: 2,
        event: { type: 'status', status: 'succeeded' },
      },
    };
    expect(statusOfUpdate(ended)).toBe('succeeded');
  });
});

describe('the steps live-runs.ts takes on its state', () => {
  it('changeRun changes a copy of the run, never the views or blocks it was given', () => {
    const first = apply(view(), [{ type: 'text-delta', delta: 'The tide' }]);
    const other = view({ runId: 'r2' });
    const views = [first, other];
    const changed = changeRun(views, 'r1', (copy) =>
      apply(copy, [{ type: 'text-delta', delta: ' turns.' }], 2),
    );
    expect(changed[0]?.blocks).toEqual([{ kind: 'text', text: 'The tide turns.' }]);
    expect(first.blocks).toEqual([{ kind: 'text', text: 'The tide' }]);
    expect(first.lastSeq).toBe(1);
    expect(changed[0]).not.toBe(first);
    expect(changed[1]).toBe(other);
    expect(views).toEqual([first, other]);
  });

  it('putLast shows a run last, in place of an earlier view of it', () => {
    const views = [view({ runId: 'r1' }), view({ runId: 'r2' }), view({ runId: 'r3' })];
    const again = view({ runId: 'r1', status: 'succeeded' });
    expect(putLast(views, again).map((item) => [item.runId, item.status])).toEqual([
      ['r2', 'running'],
      ['r3', 'running'],
      ['r1', 'succeeded'],
    ]);
  });

  it('withQueuePosition moves a queued run to its new place, and leaves a started one alone', () => {
    const queued = view({ runId: 'r2', status: 'accepted', delivery: 'queue', queuePosition: 2 });
    const started = view({ runId: 'r3', status: 'running', delivery: 'queue' });
    const views = [queued, started];
    const moved = withQueuePosition(views, runInfo({ runId: 'r2', queuePosition: 1 }));
    expect(moved[0]?.queuePosition).toBe(1);
    expect(queued.queuePosition).toBe(2);
    const late = withQueuePosition(views, runInfo({ runId: 'r3', queuePosition: 1 }));
    expect(late[1]).toBe(started);
  });

  it('steerViewOf and withSteerStatus follow a follow-up request to its end', () => {
    const run = runInfo({
      runId: 'r4',
      status: 'running',
      delivery: 'followUp',
      targetRunId: 'r1',
    });
    const steers = [steerViewOf(run, 'Then a quiz.'), steerViewOf(runInfo({ runId: 'r5' }), 'x')];
    expect(steers[0]).toEqual({
      runId: 'r4',
      targetRunId: 'r1',
      followUp: true,
      text: 'Then a quiz.',
      status: 'running',
      error: undefined,
    });
    const error = { code: 'run_finished', message: 'The run ended.' };
    const ended = withSteerStatus(steers, 'r4', 'failed', error);
    expect(ended[0]).toMatchObject({ status: 'failed', error });
    expect(ended[1]).toBe(steers[1]);
    expect(steers[0]?.status).toBe('running');
  });
});

describe('applyRunEvent with approvals', () => {
  it('shows a request with its diffs, then the answer on it; one approved by "yes to all" unasked too', () => {
    const diff = { target: 'notes/a.md', added: 1, removed: 0, diff: '+x\n' };
    const subject = { toolCallId: 'c1', toolName: 'write' };
    const shown = apply(view(), [
      {
        type: 'approval-request',
        approvalId: 'a1',
        ...subject,
        targets: ['notes/a.md'],
        diffs: [diff],
      },
      {
        type: 'approval-answered',
        approvalId: 'a1',
        ...subject,
        decision: 'refused',
        reason: 'No.',
      },
      {
        type: 'approval-answered',
        approvalId: 'a2',
        ...subject,
        targets: ['b.md'],
        decision: 'approved',
        covered: true,
      },
    ]);
    expect(shown.blocks).toEqual([
      {
        kind: 'approval',
        approvalId: 'a1',
        toolName: 'write',
        targets: ['notes/a.md'],
        diffs: [diff],
        command: undefined,
        decision: 'refused',
        reason: 'No.',
        forRun: false,
      },
      {
        kind: 'approval',
        approvalId: 'a2',
        toolName: 'write',
        targets: ['b.md'],
        diffs: [],
        command: undefined,
        decision: 'approved',
        reason: undefined,
        forRun: true,
      },
    ]);
  });
});
