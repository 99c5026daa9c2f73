import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo, V1Notification } from '@repa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepaApplication } from './repa-application.js';
import type { ConnectionContext } from './server/repa-handlers.js';
import { ended, listener, request } from './test/run-listener.js';
import { openTestApplication } from './test/test-application.js';

/** A connection that keeps every notification it is sent, and wakes whoever waits for one. */
function recorder() {
  const notes: { method: V1Notification; params: Record<string, unknown> }[] = [];
  const waiters = new Set<() => void>();
  const connection: ConnectionContext = {
    connectionId: 'recorder',
    transport: 'web',
    notify: (method, params) => {
      notes.push({ method, params: params as Record<string, unknown> });
      for (const wake of waiters) wake();
      return true;
    },
    onClose: () => () => {},
  };
  /** Waits until a kept notification satisfies `test`; returns it. */
  const until = async (test: (note: (typeof notes)[number]) => boolean) => {
    for (;;) {
      const found = notes.find(test);
      if (found) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
    }
  };
  /** The `session.run` notifications of one run, in order. */
  const announced = (runId: string) =>
    notes
      .filter((note) => note.method === 'session.run')
      .map((note) => note.params.run as RunInfo)
      .filter((run) => run.runId === runId);
  return { connection, notes, until, announced };
}

let app: RepaApplication;
let space: string;
let sessionId: string;

beforeAll(async () => {
  const opened = await openTestApplication();
  app = opened.app;
  space = join(opened.base, 'space');
  mkdirSync(space);
  sessionId = (await request(app, 'session.create', { space })).session.sessionId;
});

afterAll(() => app.close({ graceMs: 0 }));

describe('session.subscribe', () => {
  it("sends a follower the session's runs another client submits, their events and queue places", async () => {
    const handlers = app.handlers();
    const follower = recorder();
    const subscribed = await handlers['session.subscribe']?.(
      { space, sessionId },
      follower.connection,
    );
    expect(subscribed?.runs).toEqual([]);

    // Another client: a run that holds, and two requests queued behind it.
    const other = listener();
    const submit = (requestId: string, text: string, delivery?: 'queue') =>
      app.submit(
        { space, sessionId, requestId, input: { type: 'text', text }, delivery },
        other.connection,
      );
    const { run: held } = await submit('held', 'hold on');
    await follower.until(
      (note) =>
        note.method === 'run.event' &&
        note.params.runId === held.runId &&
        (note.params.event as { status?: string }).status === 'running',
    );
    const { run: first } = await submit('first', 'one', 'queue');
    const { run: second } = await submit('second', 'two', 'queue');
    expect(follower.announced(held.runId).map((run) => run.status)).toEqual(['accepted']);
    expect(follower.announced(first.runId).map((run) => run.queuePosition)).toEqual([1]);
    expect(follower.announced(second.runId).map((run) => run.queuePosition)).toEqual([2]);

    // A second tab subscribing now gets the running run and the queue, oldest first.
    const late = recorder();
    const now = await handlers['session.subscribe']?.({ space, sessionId }, late.connection);
    expect(now?.runs.map((run) => [run.runId, run.status, run.queuePosition])).toEqual([
      [held.runId, 'running', undefined],
      [first.runId, 'accepted', 1],
      [second.runId, 'accepted', 2],
    ]);

    // The held run ends: the first queued one starts, the second moves up (to both followers).
    await app.cancel(held.runId);
    for (const tab of [follower, late]) {
      await tab.until(
        (note) =>
          note.method === 'session.run' &&
          (note.params.run as RunInfo).runId === second.runId &&
          (note.params.run as RunInfo).queuePosition === 1,
      );
      await tab.until(
        (note) =>
          note.method === 'run.event' &&
          note.params.runId === second.runId &&
          (note.params.event as { status?: string }).status === 'succeeded',
      );
    }
    const firstEvents = follower.notes
      .filter((note) => note.method === 'run.event' && note.params.runId === first.runId)
      .map((note) => note.params.seq);
    expect(firstEvents).toEqual(firstEvents.map((_, index) => index + 1));

    // Unsubscribed: a new run of the session is not announced any more.
    expect(
      await handlers['session.unsubscribe']?.({ space, sessionId }, follower.connection),
    ).toEqual({ unsubscribed: true });
    const { run: after } = await submit('after', 'three');
    // `other` saw the earlier runs end too: only `after`'s own end may let the next test begin.
    expect((await ended(app, after.runId, other.events, other.next)).status).toBe('succeeded');
    expect(follower.announced(after.runId)).toEqual([]);
    expect(late.announced(after.runId)).toHaveLength(1);
  });
});

describe('session.history', () => {
  it('names the run of each item, the tool calls with their targets and the receipts of saves', async () => {
    const { connection, events, next } = listener();
    const { run } = await app.submit(
      {
        space,
        sessionId,
        requestId: 'save',
        input: { type: 'text', text: 'save notes.md then hold' },
      },
      connection,
    );
    while (!events.some((event) => event.type === 'tool-end')) await next();
    await app.cancel(run.runId);
    await ended(app, run.runId, events, next);

    const { items } = await request(app, 'session.history', { space, sessionId });
    const ofRun = items.filter((item) => item.runId === run.runId);
    expect(ofRun.map((item) => item.kind)).toEqual(
      expect.arrayContaining(['user', 'assistant', 'tool-result']),
    );
    const call = ofRun.find((item) => item.toolCalls)?.toolCalls?.[0];
    expect(call).toMatchObject({ toolName: 'write', target: 'notes.md' });
    const result = ofRun.find((item) => item.kind === 'tool-result');
    expect(result).toMatchObject({ toolCallId: call?.toolCallId });
    expect(result?.receipts?.[0]).toMatchObject({ target: 'notes.md', previousVersion: null });
    expect(result?.diffs?.[0]).toMatchObject({ target: 'notes.md' });
    expect(result?.operationId).toBe(result?.receipts?.[0]?.operationId);

    // In parts from the end: the last two, then the two before them.
    const last = await request(app, 'session.history', { space, sessionId, limit: 2 });
    expect(last).toEqual({ items: items.slice(-2), earlier: true });
    const before = await request(app, 'session.history', {
      space,
      sessionId,
      limit: 2,
      before: last.items[0]?.entryId,
    });
    expect(before.items).toEqual(items.slice(-4, -2));
    await expect(
      request(app, 'session.history', { space, sessionId, before: 'no-such-entry' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
