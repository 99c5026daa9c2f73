// Spec R93: the public client against a real daemon child process with a real SQLite ledger.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type RepaClient,
  RepaError,
  type RunEventNotification,
  type RunInfo,
} from '@repa/protocol';
import { createRepaClient } from '@repa/protocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./scripted-daemon.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const node = process.execPath;

interface Daemon {
  child: ChildProcess;
  socketPath: string;
}

function startDaemon(
  appDirectory: string,
  agentDir: string,
  mode?: 'answer-holds',
): Promise<Daemon> {
  const child = spawn(node, [script, appDirectory, agentDir, ...(mode ? [mode] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const ready = /^ready (.+)$/m.exec(out);
      if (ready?.[1]) resolve({ child, socketPath: ready[1] });
    });
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    child.once('exit', (code) => reject(new Error(`daemon exited ${code}: ${err}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
    expect.unreachable(`expected ${code}`);
  } catch (error) {
    expect(RepaError.isInstance(error) && error.code).toBe(code);
  }
}

/** Collects run events of a client and waits for conditions on them. */
function eventLog(client: RepaClient) {
  const events: RunEventNotification[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  client.on('run.event', (params) => {
    events.push(params);
    for (const waiter of [...waiters]) {
      if (waiter.test()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const of = (runId: string) => events.filter((event) => event.runId === runId);
  const until = (test: () => boolean) =>
    new Promise<void>((resolve) => (test() ? resolve() : waiters.push({ test, resolve })));
  return {
    of,
    until,
    ended: (runId: string) =>
      until(() =>
        of(runId).some(
          (event) =>
            event.event.type === 'status' && !['accepted', 'running'].includes(event.event.status),
        ),
      ),
  };
}

describe('RepaApplication through a real daemon process', () => {
  const base = mkdtempSync(join(tmpdir(), 'repa-app-'));
  const appDirectory = join(base, 'app');
  const agentDir = join(base, 'agent');
  const space = join(base, 'space');
  mkdirSync(space);
  // One of the learner's own skills (Pi's user scope), for a `/skill:` steer.
  mkdirSync(join(agentDir, 'skills', 'tidy'), { recursive: true });
  writeFileSync(
    join(agentDir, 'skills', 'tidy', 'SKILL.md'),
    '---\nname: tidy\ndescription: Keep answers tidy.\n---\nAnswer in one short sentence.\n',
  );
  let daemon: Daemon;
  let client: RepaClient;
  let log: ReturnType<typeof eventLog>;

  beforeAll(async () => {
    expect(existsSync(dist), 'build @repa/application first').toBe(true);
    daemon = await startDaemon(appDirectory, agentDir);
    client = createRepaClient({ socketPath: daemon.socketPath });
    log = eventLog(client);
  });

  afterAll(async () => {
    await client?.close();
    daemon?.child.kill('SIGTERM');
    if (daemon) await stopped(daemon.child);
  });

  const newSession = async (title?: string) =>
    (await client.request('session.create', { space, ...(title ? { title } : {}) })).session
      .sessionId;

  const submit = (
    sessionId: string,
    text: string,
    requestId = `q-${Math.random()}`,
    delivery?: 'new' | 'queue' | 'steer' | 'followUp',
  ) =>
    client.request('run.submit', {
      space,
      sessionId,
      requestId,
      input: { type: 'text', text },
      ...(delivery ? { delivery } : {}),
    });

  /** Polls the ledger until the run has ended (no timing is asserted). */
  const ended = async (runId: string): Promise<RunInfo> => {
    for (;;) {
      const { run } = await client.request('run.get', { runId });
      if (!['accepted', 'running'].includes(run.status)) return run;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('serves the public calls: space, sessions, a run with its events, history', async () => {
    const info = await client.connect();
    expect(info.server).toMatchObject({ name: 'repa-daemon', model: 'faux/faux-1' });
    const opened = await client.request('space.open', { root: space });
    expect(opened.space).toMatchObject({ name: 'space', learningContext: null });
    const sessionId = await newSession('Biology');
    const listed = await client.request('session.list', { space });
    expect(listed.sessions).toContainEqual(
      expect.objectContaining({ sessionId, title: 'Biology' }),
    );

    const { run, resubmitted } = await submit(sessionId, 'hello there');
    expect(resubmitted).toBe(false);
    expect(run.status).toBe('accepted');
    await log.ended(run.runId);
    const types = log.of(run.runId).map((event) => event.event.type);
    expect(types[0]).toBe('status');
    expect(types).toContain('prompt-sections');
    expect(types).toContain('text-delta');
    // The submitting connection gets every event from the first (seq 1) on.
    expect(log.of(run.runId).map((event) => event.seq)).toEqual(types.map((_, index) => index + 1));
    expect(log.of(run.runId)[0]?.event).toEqual({ type: 'status', status: 'running' });

    const done = (await client.request('run.get', { runId: run.runId })).run;
    expect(done).toMatchObject({ status: 'succeeded', output: 'ok: hello there', attempt: 1 });
    expect(done.promptSections?.map((section) => section.name)).toContain('base');

    const history = await client.request('session.history', { space, sessionId });
    expect(history.items.map((item) => [item.kind, item.text])).toEqual([
      ['user', 'hello there'],
      ['assistant', 'ok: hello there'],
    ]);
  });

  it('stores the settings decided at acceptance; a resubmission never re-reads them', async () => {
    const sessionId = await newSession();
    await client.request('settings.set', {
      level: 'space',
      space,
      key: 'prompts.append',
      value: 'FIRST',
    });
    const first = await submit(sessionId, 'with settings', 'settings-req');
    expect(first.run.promptSettings.append).toBe('FIRST');
    await log.ended(first.run.runId);
    await client.request('settings.set', {
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
    await client.request('settings.reset', { level: 'space', space, key: 'prompts.append' });
  });

  it('accepts one run for two concurrent submits with one request id', async () => {
    const sessionId = await newSession();
    const other = createRepaClient({ socketPath: daemon.socketPath });
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
    expect((await client.request('run.list', { sessionId })).runs).toHaveLength(1);
    await log.ended(a.run.runId);
    await other.close();
  });

  it('answers busy in a session with an active run while another session runs', async () => {
    const busySession = await newSession();
    const freeSession = await newSession();
    const held = await submit(busySession, 'hold please');
    await log.until(() =>
      log
        .of(held.run.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    await expectCode(submit(busySession, 'another'), 'busy');
    const free = await submit(freeSession, 'meanwhile');
    await log.ended(free.run.runId);
    expect((await client.request('run.get', { runId: free.run.runId })).run.status).toBe(
      'succeeded',
    );
    expect((await client.request('run.get', { runId: held.run.runId })).run.status).toBe('running');
    const cancelled = await client.request('run.cancel', { runId: held.run.runId });
    expect(cancelled.run).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
  });

  it('cancels mid-run after a save and reports the save truthfully; retry is a linked new attempt', async () => {
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'save kept.md then hold');
    await log.until(() => log.of(run.runId).some((event) => event.event.type === 'tool-end'));
    const cancelled = (await client.request('run.cancel', { runId: run.runId })).run;
    expect(cancelled.status).toBe('cancelled');
    const toolEnd = log.of(run.runId).find((event) => event.event.type === 'tool-end')?.event;
    expect(toolEnd).toMatchObject({
      toolName: 'write',
      isError: false,
      receipts: [{ target: 'kept.md' }],
    });
    expect(readFileSync(join(space, 'kept.md'), 'utf8')).toBe('saved before cancel\n');

    const retried = await client.request('run.retry', {
      runId: run.runId,
      requestId: `retry-${run.runId}`,
    });
    expect(retried.run).toMatchObject({ attempt: 2, retryOf: run.runId, input: run.input });
    await log.until(() =>
      log.of(retried.run.runId).some((event) => event.event.type === 'tool-end'),
    );
    await client.request('run.cancel', { runId: retried.run.runId });
  });

  const sessionsDir = () => join(space, '.repa', 'sessions');
  const sessionFileOf = (sessionId: string) => {
    const name = readdirSync(sessionsDir()).find((file) => file.endsWith(`_${sessionId}.jsonl`));
    if (!name) throw new Error(`no session file for ${sessionId}`);
    return join(sessionsDir(), name);
  };

  it('lists sessions with a garbled header or NULs over the last entry as damaged, keeps byte copies and never touches them', async () => {
    const garbled = await newSession('Garbled header');
    const nulled = await newSession('NUL tail');
    const garbledFile = sessionFileOf(garbled);
    writeFileSync(garbledFile, `#garbled#${readFileSync(garbledFile, 'utf8').slice(9)}`);
    const nulledFile = sessionFileOf(nulled);
    const bytes = readFileSync(nulledFile);
    // After a power loss the last entry's blocks read back as zeros.
    bytes.fill(0, bytes.lastIndexOf(10, bytes.length - 2) + 1);
    writeFileSync(nulledFile, bytes);

    for (const [sessionId, file] of [
      [garbled, garbledFile],
      [nulled, nulledFile],
    ] as const) {
      const before = readFileSync(file);
      const listed = (await client.request('session.list', { space })).sessions;
      const info = listed.find((session) => session.sessionId === sessionId);
      expect(info?.damaged).toMatchObject({ code: 'session_damaged' });
      await expectCode(client.request('session.history', { space, sessionId }), 'session_damaged');
      await expectCode(submit(sessionId, 'go on'), 'session_damaged');
      expect(readFileSync(file)).toEqual(before);
      const quarantine = join(sessionsDir(), 'quarantine');
      const copies = readdirSync(quarantine).filter((name) =>
        name.startsWith(`${basename(file)}.`),
      );
      expect(copies).toHaveLength(1);
      expect(readFileSync(join(quarantine, copies[0] ?? ''))).toEqual(before);
    }
  });

  it("answers another client's run.submit while a space's 64 MB context, FIFO and 300 MiB session files and FIFO settings fail with their codes", async () => {
    const hostile = join(base, 'hostile-space');
    mkdirSync(join(hostile, '.repa', 'sessions'), { recursive: true });
    // A well-formed context with a 64 MiB body.
    writeFileSync(
      join(hostile, '.repa', 'learning-context.json'),
      Buffer.concat([
        Buffer.from('{"revision":"1","sources":[],"body":"'),
        Buffer.alloc(64 * 1024 * 1024, 'x'),
        Buffer.from('"}'),
      ]),
    );
    const sessions = join(hostile, '.repa', 'sessions');
    execFileSync('mkfifo', [join(sessions, '2026-01-01T00-00-00-000Z_fifo.jsonl')]);
    const huge = join(sessions, '2026-01-01T00-00-00-000Z_huge.jsonl');
    writeFileSync(huge, '');
    truncateSync(huge, 300 * 1024 * 1024);
    const fifoSettings = join(base, 'fifo-settings-space');
    mkdirSync(fifoSettings);
    const fifoSettingsSession = (await client.request('session.create', { space: fifoSettings }))
      .session.sessionId;
    execFileSync('mkfifo', [join(fifoSettings, '.repa', 'settings.json')]);
    // Trusted (else its shipped sessions and context would not even be read): the bounds still hold.
    await client.request('space.trust', { space: hostile, trusted: true });
    const hostileSession = (
      await client.request('session.create', { space: hostile, title: 'Hostile' })
    ).session.sessionId;
    const witness = createRepaClient({ socketPath: daemon.socketPath });
    const witnessSession = (await witness.request('session.create', { space })).session.sessionId;
    const submitIn = (where: string, sessionId: string) =>
      client.request('run.submit', {
        space: where,
        sessionId,
        requestId: `q-${Math.random()}`,
        input: { type: 'text', text: 'read my context' },
      });
    try {
      const [witnessRun, contextRun] = await Promise.all([
        witness.request('run.submit', {
          space,
          sessionId: witnessSession,
          requestId: `q-${Math.random()}`,
          input: { type: 'text', text: 'meanwhile' },
        }),
        submitIn(hostile, hostileSession),
        expectCode(submitIn(hostile, 'fifo'), 'session_damaged'),
        expectCode(submitIn(hostile, 'huge'), 'data_too_large'),
        expectCode(submitIn(fifoSettings, fifoSettingsSession), 'space_unsafe'),
      ]);
      expect(await ended(witnessRun.run.runId)).toMatchObject({ status: 'succeeded' });
      // Spec R31: the run fails before its message enters history.
      expect(await ended(contextRun.run.runId)).toMatchObject({
        status: 'failed',
        error: { code: 'data_too_large' },
      });
      const history = await client.request('session.history', {
        space: hostile,
        sessionId: hostileSession,
      });
      expect(history.items.filter((item) => item.kind === 'user')).toEqual([]);
      const listed = (await client.request('session.list', { space: hostile })).sessions;
      const damage = (id: string) => listed.find((session) => session.sessionId === id)?.damaged;
      expect(damage('fifo')).toMatchObject({ code: 'session_damaged' });
      expect(damage('huge')).toMatchObject({ code: 'data_too_large' });
      expect(existsSync(join(sessions, 'quarantine'))).toBe(false);
    } finally {
      await witness.close();
      rmSync(hostile, { recursive: true, force: true });
      rmSync(fifoSettings, { recursive: true, force: true });
    }
  });

  it('reads a session with a torn last line without writing it; continuing it keeps the bytes as a prefix', async () => {
    const sessionId = await newSession('Torn');
    const file = sessionFileOf(sessionId);
    appendFileSync(file, '{"type":"message","id":"torn","parentId":null,"message":{"ro');
    const torn = readFileSync(file);
    const history = await client.request('session.history', { space, sessionId });
    expect(history.items).toEqual([]);
    expect(readFileSync(file)).toEqual(torn);

    const { run } = await submit(sessionId, 'after the tear');
    await log.ended(run.runId);
    expect((await client.request('run.get', { runId: run.runId })).run.status).toBe('succeeded');
    const continued = readFileSync(file);
    expect(continued.subarray(0, torn.length)).toEqual(torn);
    expect(continued[torn.length]).toBe(10);
    const after = await client.request('session.history', { space, sessionId });
    expect(after.items.map((item) => [item.kind, item.text])).toEqual([
      ['user', 'after the tear'],
      ['assistant', 'ok: after the tear'],
    ]);
  });

  it('keeps serving another client through malformed input and unknown methods', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = createConnection(daemon.socketPath);
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk;
        if (data.split('\n').length > 3) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
      socket.write('{not json\n');
      socket.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersions: ['v1'] } })}\n`,
      );
      socket.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'run.explode', params: {} })}\n`,
      );
    });
    const [malformed, , unknown] = reply
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(malformed.error.data.code).toBe('invalid_request');
    expect(unknown.error.data.code).toBe('method_not_found');
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'still here');
    await log.ended(run.runId);
    expect((await client.request('run.get', { runId: run.runId })).run.output).toBe(
      'ok: still here',
    );
  });

  it('after kill -9 mid-run and a restart: the run is interrupted, history intact, resubmit returns it', async () => {
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'hold across a crash', 'crash-req');
    // Wait until Pi has written the user message (what was saved must survive the crash).
    while (
      !(await client.request('session.history', { space, sessionId })).items.some(
        (item) => item.kind === 'user',
      )
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await client.request('run.get', { runId: run.runId })).run.status).toBe('running');
    daemon.child.kill('SIGKILL');
    await stopped(daemon.child);
    daemon = await startDaemon(appDirectory, agentDir);
    const after: RunInfo = (await client.request('run.get', { runId: run.runId })).run;
    expect(after).toMatchObject({ status: 'interrupted', error: { code: 'interrupted' } });
    const again = await submit(sessionId, 'hold across a crash', 'crash-req');
    expect(again).toMatchObject({
      resubmitted: true,
      run: { runId: run.runId, status: 'interrupted' },
    });
    const history = await client.request('session.history', { space, sessionId });
    expect(history.items.map((item) => item.kind)).toContain('user');
    const next = await submit(sessionId, 'after the crash');
    await log.ended(next.run.runId);
    expect((await client.request('run.get', { runId: next.run.runId })).run.status).toBe(
      'succeeded',
    );
  });

  it('after kill -9 in the middle of a save: the restart finishes the save and attaches it to the interrupted run', async () => {
    const sessionId = await newSession();
    const { run } = await submit(sessionId, 'save first.md then hold');
    await log.until(() => log.of(run.runId).some((event) => event.event.type === 'tool-end'));
    const toolEnd = log.of(run.runId).find((event) => event.event.type === 'tool-end')?.event;
    // The run's saves are named after the run.
    expect(toolEnd).toMatchObject({ receipts: [{ operationId: `${run.runId}-1` }] });
    daemon.child.kill('SIGKILL');
    await stopped(daemon.child);
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
    daemon = await startDaemon(appDirectory, agentDir);
    const after: RunInfo = (await client.request('run.get', { runId: run.runId })).run;
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
    await log.until(() =>
      log
        .of(run.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    daemon.child.kill('SIGTERM');
    await stopped(daemon.child);
    expect(daemon.child.exitCode).toBe(0);
    expect(existsSync(daemon.socketPath)).toBe(false);
    daemon = await startDaemon(appDirectory, agentDir);
    expect((await client.request('run.get', { runId: run.runId })).run).toMatchObject({
      status: 'cancelled',
      error: { code: 'cancelled' },
    });
  });

  it('after kill -9 with three queued runs: the first is interrupted, the other two run in order, none twice', async () => {
    const sessionId = await newSession();
    const first = (await submit(sessionId, 'hold the queue', 'queue-1', 'queue')).run;
    await log.until(() =>
      log
        .of(first.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    const second = (await submit(sessionId, 'second in line', 'queue-2', 'queue')).run;
    const third = (await submit(sessionId, 'third in line', 'queue-3', 'queue')).run;
    expect([second.status, second.queuePosition, third.status, third.queuePosition]).toEqual([
      'accepted',
      1,
      'accepted',
      2,
    ]);
    const listed = (await client.request('run.list', { sessionId, status: 'accepted' })).runs;
    expect(listed.map((run) => [run.runId, run.queuePosition])).toEqual([
      [third.runId, 2],
      [second.runId, 1],
    ]);
    // A request id already accepted into the queue is the same run, not a second one.
    expect(await submit(sessionId, 'second in line', 'queue-2', 'queue')).toMatchObject({
      resubmitted: true,
      run: { runId: second.runId },
    });

    daemon.child.kill('SIGKILL');
    await stopped(daemon.child);
    daemon = await startDaemon(appDirectory, agentDir);

    expect((await client.request('run.get', { runId: first.runId })).run).toMatchObject({
      status: 'interrupted',
      error: { code: 'interrupted' },
    });
    const [secondDone, thirdDone] = [await ended(second.runId), await ended(third.runId)];
    expect(secondDone).toMatchObject({ status: 'succeeded', output: 'ok: second in line' });
    expect(thirdDone).toMatchObject({ status: 'succeeded', output: 'ok: third in line' });
    expect(secondDone.queuePosition).toBeUndefined();
    expect(String(secondDone.endedAt) <= String(thirdDone.startedAt)).toBe(true);
    const users = (await client.request('session.history', { space, sessionId })).items
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
    expect((await client.request('run.list', { sessionId })).runs).toHaveLength(3);
  });

  it('steers into the running run, refuses steer without one, and says run_finished when the run ends first', async () => {
    const sessionId = await newSession();
    await expectCode(submit(sessionId, 'steer nothing', undefined, 'steer'), 'no_active_run');
    const { run } = await submit(sessionId, 'hold for steering');
    await log.until(() =>
      log
        .of(run.runId)
        .some((event) => event.event.type === 'status' && event.event.status === 'running'),
    );
    const steer = await submit(sessionId, 'turn left', 'steer-1', 'steer');
    expect(steer.run).toMatchObject({
      delivery: 'steer',
      targetRunId: run.runId,
      input: { text: 'turn left' },
    });
    // A message not yet delivered can be cancelled: it never reaches the model.
    const second = await submit(sessionId, 'turn right', 'steer-2', 'steer');
    expect((await client.request('run.cancel', { runId: second.run.runId })).run).toMatchObject({
      status: 'cancelled',
      error: { code: 'cancelled' },
    });
    // The held model call never reaches a turn boundary: cancelling the run ends it first.
    await client.request('run.cancel', { runId: run.runId });
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
    await log.until(() =>
      log
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
    const resumed = await client.request('run.resume', {
      runId: b.run.runId,
      requestId: 'resume-b2',
    });
    // The scripted model answers the last request it was sent: B's, not A's.
    expect(await ended(resumed.run.runId)).toMatchObject({
      status: 'succeeded',
      output: 'ok: what about B',
    });
    const users = (await client.request('session.history', { space, sessionId })).items
      .filter((item) => item.kind === 'user')
      .map((item) => item.text);
    expect(users).toEqual(['fail at the provider', 'what about B']);
    // A is no longer the session's last run: it cannot be continued over B's.
    await expectCode(
      client.request('run.resume', { runId: a.run.runId, requestId: 'resume-a2' }),
      'not_last_run',
    );
  });

  it('resumes an interrupted run on request only: same session, no repeated user message, the original settings', async () => {
    const sessionId = await newSession();
    await client.request('settings.set', {
      space,
      sessionId,
      level: 'session',
      key: 'prompts.append',
      value: 'RESUME SETTINGS',
    });
    const { run } = await submit(sessionId, 'hold until resumed', 'resume-original');
    while (
      !(await client.request('session.history', { space, sessionId })).items.some(
        (item) => item.kind === 'user',
      )
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    daemon.child.kill('SIGKILL');
    await stopped(daemon.child);
    // This daemon's model answers `hold …` at once, so the resumed run can finish.
    daemon = await startDaemon(appDirectory, agentDir, 'answer-holds');
    expect((await client.request('run.get', { runId: run.runId })).run.status).toBe('interrupted');
    // Settings changed since acceptance: the resumption keeps the original's.
    await client.request('settings.reset', {
      space,
      sessionId,
      level: 'session',
      key: 'prompts.append',
    });
    const resumed = await client.request('run.resume', {
      runId: run.runId,
      requestId: 'resume-1',
    });
    expect(resumed.run).toMatchObject({ resumeOf: run.runId, attempt: 2, sessionId });
    expect(resumed.run.promptSettings).toEqual(run.promptSettings);
    expect(resumed.run.promptSettings.append).toBe('RESUME SETTINGS');
    const done = await ended(resumed.run.runId);
    expect(done).toMatchObject({ status: 'succeeded', output: 'ok: hold until resumed' });
    const kinds = (await client.request('session.history', { space, sessionId })).items.map(
      (item) => item.kind,
    );
    expect(kinds.filter((kind) => kind === 'user')).toHaveLength(1);
    expect(
      await client.request('run.resume', { runId: run.runId, requestId: 'resume-1' }),
    ).toMatchObject({ resubmitted: true, run: { runId: resumed.run.runId } });
    await expectCode(
      client.request('run.resume', { runId: done.runId, requestId: 'resume-2' }),
      'invalid_request',
    );
    // Back to a daemon whose model holds, for whatever runs next.
    daemon.child.kill('SIGTERM');
    await stopped(daemon.child);
    daemon = await startDaemon(appDirectory, agentDir);
  });
});
