import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRepaClient } from '@repa/protocol/node';
import { describe, expect, it } from 'vitest';
import { expectCode, useApplicationDaemon } from './application-daemon.js';

const rig = useApplicationDaemon();
const { base, space, newSession, submit, ended } = rig;

describe('RepaApplication through a real daemon process', () => {
  it('serves the public calls: space, sessions, a run with its events, history', async () => {
    const info = await rig.client.connect();
    expect(info.server).toMatchObject({ name: 'repa-daemon', model: 'faux/faux-1' });
    const opened = await rig.client.request('space.open', { root: space });
    expect(opened.space).toMatchObject({ name: 'space', learningContext: null });
    const sessionId = await newSession('Biology');
    const listed = await rig.client.request('session.list', { space });
    expect(listed.sessions).toContainEqual(
      expect.objectContaining({ sessionId, title: 'Biology' }),
    );

    const { run, resubmitted } = await submit(sessionId, 'hello there');
    expect(resubmitted).toBe(false);
    expect(run.status).toBe('accepted');
    await rig.log.ended(run.runId);
    const types = rig.log.of(run.runId).map((event) => event.event.type);
    expect(types[0]).toBe('status');
    expect(types).toContain('prompt-sections');
    expect(types).toContain('text-delta');
    // The submitting connection gets every event from the first (seq 1) on.
    expect(rig.log.of(run.runId).map((event) => event.seq)).toEqual(
      types.map((_, index) => index + 1),
    );
    expect(rig.log.of(run.runId)[0]?.event).toEqual({ type: 'status', status: 'running' });

    const done = (await rig.client.request('run.get', { runId: run.runId })).run;
    expect(done).toMatchObject({ status: 'succeeded', output: 'ok: hello there', attempt: 1 });
    expect(done.promptSections?.map((section) => section.name)).toContain('base');

    const history = await rig.client.request('session.history', { space, sessionId });
    expect(history.items.map((item) => [item.kind, item.text])).toEqual([
      ['user', 'hello there'],
      ['assistant', 'ok: hello there'],
    ]);
  });

  it('stores the settings decided at acceptance; a resubmission never re-reads them', async () => {
    const sessionId = await newSession();
    await rig.client.request('settings.set', {
      level: 'space',
      space,
      key: 'prompts.append',
      value: 'FIRST',
    });
    const first = await submit(sessionId, 'with settings', 'settings-req');
    expect(first.run.promptSettings.append).toBe('FIRST');
    await rig.log.ended(first.run.runId);
    await rig.client.request('settings.set', {
      level: 'space',
      space,
      key: 'prompts.append',
      value: 'SECOND',
    });
    const again = await submit(sessionId, 'with settings', 'settings-req');
    expect(again.resubmitted).toBe(true);
    expect(again.run.runId).toBe(first.run.runId);
    expect(again.run.promptSettings.append).toBe('FIRST');
    expect(again.run.settingsRevisions.space).toBeGreaterThan(0);
    await expectCode(submit(sessionId, 'something else', 'settings-req'), 'idempotency_mismatch');
    await rig.client.request('settings.reset', { level: 'space', space, key: 'prompts.append' });
  });

  it('accepts one run for two concurrent submits with one request id', async () => {
    const sessionId = await newSession();
    const other = createRepaClient({ socketPath: rig.daemon.socketPath });
    const [a, b] = await Promise.all([
      submit(sessionId, 'same', 'concurrent-req'),
      other.request('run.submit', {
        space,
        sessionId,
        requestId: 'concurrent-req',
        input: { type: 'text', text: 'same' },
      }),
    ]);
    expect(a.run.runId).toBe(b.run.runId);
    expect([a.resubmitted, b.resubmitted].sort()).toEqual([false, true]);
    expect((await rig.client.request('run.list', { sessionId })).runs).toHaveLength(1);
    await rig.log.ended(a.run.runId);
    await other.close();
  });

  it('answers busy in a session with an active run while another session runs', async () => {
    const busySession = await newSession();
    const freeSession = await newSession();
    const held = await submit(busySession, 'hold please');
    await rig.log.until(() =>
      rig.log
        .of(held.run.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    await expectCode(submit(busySession, 'another'), 'busy');
    const free = await submit(freeSession, 'meanwhile');
    await rig.log.ended(free.run.runId);
    expect((await rig.client.request('run.get', { runId: free.run.runId })).run.status).toBe(
      'succeeded',
    );
    expect((await rig.client.request('run.get', { runId: held.run.runId })).run.status).toBe(
      'running',
    );
    const cancelled = await rig.client.request('run.cancel', { runId: held.run.runId });
    expect(cancelled.run).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
  });

  it('cancels mid-run after a save and reports the save truthfully; retry is a linked new attempt', async () => {
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'save kept.md then hold');
    await rig.log.until(() =>
      rig.log.of(run.runId).some((event) => event.event.type === 'tool-end'),
    );
    const cancelled = (await rig.client.request('run.cancel', { runId: run.runId })).run;
    expect(cancelled.status).toBe('cancelled');
    const toolEnd = rig.log.of(run.runId).find((event) => event.event.type === 'tool-end')?.event;
    expect(toolEnd).toMatchObject({
      toolName: 'write',
      isError: false,
      receipts: [{ target: 'kept.md' }],
    });
    expect(readFileSync(join(space, 'kept.md'), 'utf8')).toBe('saved before cancel\n');

    const retried = await rig.client.request('run.retry', {
      runId: run.runId,
      requestId: `retry-${run.runId}`,
    });
    expect(retried.run).toMatchObject({ attempt: 2, retryOf: run.runId, input: run.input });
    await rig.log.until(() =>
      rig.log.of(retried.run.runId).some((event) => event.event.type === 'tool-end'),
    );
    await rig.client.request('run.cancel', { runId: retried.run.runId });
  });

  it('steers into the running run, refuses steer without one, and says run_finished when the run ends first', async () => {
    const sessionId = await newSession();
    await expectCode(submit(sessionId, 'steer nothing', undefined, 'steer'), 'no_active_run');
    const { run } = await submit(sessionId, 'hold for steering');
    await rig.log.until(() =>
      rig.log
        .of(run.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    // Steering here is into a run whose message is in the history (running is said before it is).
    await rig.inHistory(sessionId);
    const steer = await submit(sessionId, 'turn left', 'steer-1', 'steer');
    expect(steer.run).toMatchObject({
      delivery: 'steer',
      targetRunId: run.runId,
      input: { text: 'turn left' },
    });
    // A message not yet delivered can be cancelled: it never reaches the model.
    const second = await submit(sessionId, 'turn right', 'steer-2', 'steer');
    expect((await rig.client.request('run.cancel', { runId: second.run.runId })).run).toMatchObject(
      {
        status: 'cancelled',
        error: { code: 'cancelled' },
      },
    );
    // The held model call never reaches a turn boundary: cancelling the run ends it first.
    await rig.client.request('run.cancel', { runId: run.runId });
    const record = await ended(steer.run.runId);
    expect(record).toMatchObject({ status: 'failed', error: { code: 'run_finished' } });
    expect(await submit(sessionId, 'turn left', 'steer-1', 'steer')).toMatchObject({
      resubmitted: true,
      run: { runId: steer.run.runId, status: 'failed' },
    });
  });

  it('records a /skill: steer delivered, though Pi expands its text', async () => {
    const sessionId = await newSession();
    const go = join(base, 'go-skill-steer');
    const { run } = await submit(sessionId, `wait for ${go}`);
    await rig.log.until(() =>
      rig.log
        .of(run.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    const steer = await submit(sessionId, '/skill:tidy and be brief', 'skill-steer', 'steer');
    writeFileSync(go, '');
    expect(await ended(steer.run.runId)).toMatchObject({ status: 'succeeded' });
    // The model got the skill's text, and answered the steered message.
    const done = await ended(run.runId);
    expect(done.output).toContain('<skill name="tidy"');
    expect(done.output).toContain('and be brief');
  });
});
