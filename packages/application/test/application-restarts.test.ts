import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { expectCode, startDaemon, stopped, useApplicationDaemon } from './application-daemon.js';

const rig = useApplicationDaemon();
const { appDirectory, agentDir, space, newSession, submit, ended } = rig;

describe('RepaApplication through a real daemon process', () => {
  it('after kill -9 mid-run and a restart: the run is interrupted, history intact, resubmit returns it', async () => {
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'hold across a crash', 'crash-req');
    // Wait until Pi has written the user message (what was saved must survive the crash).
    await rig.inHistory(sessionId);
    expect((await rig.client.request('run.get', { runId: run.runId })).run.status).toBe('running');
    rig.daemon.child.kill('SIGKILL');
    await stopped(rig.daemon.child);
    rig.daemon = await startDaemon(appDirectory, agentDir);
    const after: RunInfo = (await rig.client.request('run.get', { runId: run.runId })).run;
    expect(after).toMatchObject({ status: 'interrupted', error: { code: 'interrupted' } });
    const again = await submit(sessionId, 'hold across a crash', 'crash-req');
    expect(again).toMatchObject({
      resubmitted: true,
      run: { runId: run.runId, status: 'interrupted' },
    });
    const history = await rig.client.request('session.history', { space, sessionId });
    expect(history.items.map((item) => item.kind)).toContain('user');
    const next = await submit(sessionId, 'after the crash');
    await rig.log.ended(next.run.runId);
    expect((await rig.client.request('run.get', { runId: next.run.runId })).run.status).toBe(
      'succeeded',
    );
  });

  it('after kill -9 in the middle of a save: the restart finishes the save and attaches it to the interrupted run', async () => {
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'save first.md then hold');
    await rig.log.until(() =>
      rig.log.of(run.runId).some((event) => event.event.type === 'tool-end'),
    );
    const toolEnd = rig.log.of(run.runId).find((event) => event.event.type === 'tool-end')?.event;
    // The run's saves are named after the run.
    expect(toolEnd).toMatchObject({ receipts: [{ operationId: `${run.runId}-1` }] });
    rig.daemon.child.kill('SIGKILL');
    await stopped(rig.daemon.child);
    // What a daemon killed right after the first rename of the run's second save leaves behind.
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const operationId = `${run.runId}-2`;
    writeFileSync(join(space, 'two-a.md'), 'new a\n');
    writeFileSync(join(space, 'two-b.md'), 'old b\n');
    const change = (target: string, from: string, to: string, position: number) => ({
      target,
      identity: `repa:document/${target.replace('.', '-')}`,
      previousVersion: sha(from),
      version: sha(to),
      content: Buffer.from(to).toString('base64'),
      temp: `.${target}.repa-tmp-${operationId}-${position}`,
      mode: null,
      createdDirs: [],
    });
    mkdirSync(join(space, '.repa/intents'), { recursive: true });
    writeFileSync(
      join(space, `.repa/intents/${operationId}.json`),
      JSON.stringify({
        format: 'repa.content-intent/1',
        operationId,
        createdAt: new Date().toISOString(),
        status: 'pending',
        changes: [
          change('two-a.md', 'old a\n', 'new a\n', 0),
          change('two-b.md', 'old b\n', 'new b\n', 1),
        ],
      }),
    );
    rig.daemon = await startDaemon(appDirectory, agentDir);
    const after: RunInfo = (await rig.client.request('run.get', { runId: run.runId })).run;
    expect(after).toMatchObject({
      status: 'interrupted',
      error: {
        code: 'interrupted',
        details: {
          recoveredSaves: [
            {
              operationId,
              receipts: [
                { target: 'two-a.md', version: sha('new a\n') },
                { target: 'two-b.md', version: sha('new b\n') },
              ],
            },
          ],
        },
      },
    });
    expect(readFileSync(join(space, 'two-b.md'), 'utf8')).toBe('new b\n');
  });

  it('on SIGTERM answers, cancels the held run after its grace period and exits cleanly', async () => {
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'hold until shutdown');
    await rig.log.until(() =>
      rig.log
        .of(run.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    rig.daemon.child.kill('SIGTERM');
    await stopped(rig.daemon.child);
    expect(rig.daemon.child.exitCode).toBe(0);
    expect(existsSync(rig.daemon.socketPath)).toBe(false);
    rig.daemon = await startDaemon(appDirectory, agentDir);
    expect((await rig.client.request('run.get', { runId: run.runId })).run).toMatchObject({
      status: 'cancelled',
      error: { code: 'cancelled' },
    });
  });

  it('after kill -9 with three queued runs: the first is interrupted, the other two run in order, none twice', async () => {
    const sessionId = await newSession();
    const first = (await submit(sessionId, 'hold the queue', 'queue-1', 'queue')).run;
    await rig.log.until(() =>
      rig.log
        .of(first.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    // The kill below is meant to find the first run's message in the history.
    await rig.inHistory(sessionId);
    const second = (await submit(sessionId, 'second in line', 'queue-2', 'queue')).run;
    const third = (await submit(sessionId, 'third in line', 'queue-3', 'queue')).run;
    expect([second.status, second.queuePosition, third.status, third.queuePosition]).toEqual([
      'accepted',
      1,
      'accepted',
      2,
    ]);
    const listed = (await rig.client.request('run.list', { sessionId, status: 'accepted' })).runs;
    expect(listed.map((run) => [run.runId, run.queuePosition])).toEqual([
      [third.runId, 2],
      [second.runId, 1],
    ]);
    // A request id already accepted into the queue is the same run, not a second one.
    expect(await submit(sessionId, 'second in line', 'queue-2', 'queue')).toMatchObject({
      resubmitted: true,
      run: { runId: second.runId },
    });

    rig.daemon.child.kill('SIGKILL');
    await stopped(rig.daemon.child);
    rig.daemon = await startDaemon(appDirectory, agentDir);

    expect((await rig.client.request('run.get', { runId: first.runId })).run).toMatchObject({
      status: 'interrupted',
      error: { code: 'interrupted' },
    });
    const [secondDone, thirdDone] = [await ended(second.runId), await ended(third.runId)];
    expect(secondDone).toMatchObject({ status: 'succeeded', output: 'ok: second in line' });
    expect(thirdDone).toMatchObject({ status: 'succeeded', output: 'ok: third in line' });
    expect(secondDone.queuePosition).toBeUndefined();
    expect(String(secondDone.endedAt) <= String(thirdDone.startedAt)).toBe(true);
    const users = (await rig.client.request('session.history', { space, sessionId })).items
      .filter((item) => item.kind === 'user')
      .map((item) => JSON.stringify(item));
    expect(
      users.map((item) =>
        ['hold the queue', 'second in line', 'third in line'].findIndex((text) =>
          item.includes(text),
        ),
      ),
    ).toEqual([0, 1, 2]);
    // The interrupted first run was not started again.
    expect((await rig.client.request('run.list', { sessionId })).runs).toHaveLength(3);
  });

  it('resumes the run it names: a run that never entered the history sends its own request', async () => {
    const sessionId = await newSession();
    const a = await submit(sessionId, 'fail at the provider', 'resume-a');
    expect(await ended(a.run.runId)).toMatchObject({ status: 'failed' });
    // B fails before its message reaches the history: the learning context is unreadable.
    const contextFile = join(space, '.repa', 'learning-context.json');
    writeFileSync(contextFile, '{ not json');
    const b = await submit(sessionId, 'what about B', 'resume-b');
    expect(await ended(b.run.runId)).toMatchObject({
      status: 'failed',
      error: { code: 'context_unavailable' },
    });
    rmSync(contextFile);
    const resumed = await rig.client.request('run.resume', {
      runId: b.run.runId,
      requestId: 'resume-b2',
    });
    // The scripted model answers the last request it was sent: B's, not A's.
    expect(await ended(resumed.run.runId)).toMatchObject({
      status: 'succeeded',
      output: 'ok: what about B',
    });
    const users = (await rig.client.request('session.history', { space, sessionId })).items
      .filter((item) => item.kind === 'user')
      .map((item) => item.text);
    expect(users).toEqual(['fail at the provider', 'what about B']);
    // A is no longer the session's last run: it cannot be continued over B's.
    await expectCode(
      rig.client.request('run.resume', { runId: a.run.runId, requestId: 'resume-a2' }),
      'not_last_run',
    );
  });

  it('resumes an interrupted run on request only: same session, no repeated user message, the original settings', async () => {
    const sessionId = await newSession();
    await rig.client.request('settings.set', {
      space,
      sessionId,
      level: 'session',
      key: 'prompts.append',
      value: 'RESUME SETTINGS',
    });
    const { run } = await submit(sessionId, 'hold until resumed', 'resume-original');
    while (
      !(await rig.client.request('session.history', { space, sessionId })).items.some(
        (item) => item.kind === 'user',
      )
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    rig.daemon.child.kill('SIGKILL');
    await stopped(rig.daemon.child);
    // This daemon's model answers `hold …` at once, so the resumed run can finish.
    rig.daemon = await startDaemon(appDirectory, agentDir, 'answer-holds');
    expect((await rig.client.request('run.get', { runId: run.runId })).run.status).toBe(
      'interrupted',
    );
    // Settings changed since acceptance: the resumption keeps the original's.
    await rig.client.request('settings.reset', {
      space,
      sessionId,
      level: 'session',
      key: 'prompts.append',
    });
    const resumed = await rig.client.request('run.resume', {
      runId: run.runId,
      requestId: 'resume-1',
    });
    expect(resumed.run).toMatchObject({ resumeOf: run.runId, attempt: 2, sessionId });
    expect(resumed.run.promptSettings).toEqual(run.promptSettings);
    expect(resumed.run.promptSettings.append).toBe('RESUME SETTINGS');
    const done = await ended(resumed.run.runId);
    expect(done).toMatchObject({ status: 'succeeded', output: 'ok: hold until resumed' });
    const kinds = (await rig.client.request('session.history', { space, sessionId })).items.map(
      (item) => item.kind,
    );
    expect(kinds.filter((kind) => kind === 'user')).toHaveLength(1);
    expect(
      await rig.client.request('run.resume', { runId: run.runId, requestId: 'resume-1' }),
    ).toMatchObject({ resubmitted: true, run: { runId: resumed.run.runId } });
    await expectCode(
      rig.client.request('run.resume', { runId: done.runId, requestId: 'resume-2' }),
      'invalid_request',
    );
    // Back to a daemon whose model holds, for whatever runs next.
    rig.daemon.child.kill('SIGTERM');
    await stopped(rig.daemon.child);
    rig.daemon = await startDaemon(appDirectory, agentDir);
  });
});
