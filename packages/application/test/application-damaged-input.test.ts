// Spec R93: the public client against a real daemon child process with a real SQLite ledger.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { basename, join } from 'node:path';
import { createRepaClient } from '@repa/protocol/node';
import { describe, expect, it } from 'vitest';
import { expectCode, useApplicationDaemon } from './application-daemon.js';

const rig = useApplicationDaemon();
const { base, space, newSession, submit, ended, sessionsDir, sessionFileOf } = rig;

describe('RepaApplication through a real daemon process', () => {
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
      const listed = (await rig.client.request('session.list', { space })).sessions;
      const info = listed.find((session) => session.sessionId === sessionId);
      expect(info?.damaged).toMatchObject({ code: 'session_damaged' });
      await expectCode(
        rig.client.request('session.history', { space, sessionId }),
        'session_damaged',
      );
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
    const fifoSettingsSession = (
      await rig.client.request('session.create', { space: fifoSettings })
    ).session.sessionId;
    execFileSync('mkfifo', [join(fifoSettings, '.repa', 'settings.json')]);
    // Trusted (else its shipped sessions and context would not even be read): the bounds still hold.
    await rig.client.request('space.trust', { space: hostile, trusted: true });
    const hostileSession = (
      await rig.client.request('session.create', { space: hostile, title: 'Hostile' })
    ).session.sessionId;
    const witness = createRepaClient({ socketPath: rig.daemon.socketPath });
    const witnessSession = (await witness.request('session.create', { space })).session.sessionId;
    const submitIn = (where: string, sessionId: string) =>
      rig.client.request('run.submit', {
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
      const history = await rig.client.request('session.history', {
        space: hostile,
        sessionId: hostileSession,
      });
      expect(history.items.filter((item) => item.kind === 'user')).toEqual([]);
      const listed = (await rig.client.request('session.list', { space: hostile })).sessions;
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
    const history = await rig.client.request('session.history', { space, sessionId });
    expect(history.items).toEqual([]);
    expect(readFileSync(file)).toEqual(torn);

    const { run } = await submit(sessionId, 'after the tear');
    await rig.log.ended(run.runId);
    expect((await rig.client.request('run.get', { runId: run.runId })).run.status).toBe(
      'succeeded',
    );
    const continued = readFileSync(file);
    expect(continued.subarray(0, torn.length)).toEqual(torn);
    expect(continued[torn.length]).toBe(10);
    const after = await rig.client.request('session.history', { space, sessionId });
    expect(after.items.map((item) => [item.kind, item.text])).toEqual([
      ['user', 'after the tear'],
      ['assistant', 'ok: after the tear'],
    ]);
  });

  it('keeps serving another client through malformed input and unknown methods', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = createConnection(rig.daemon.socketPath);
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
    await rig.log.ended(run.runId);
    expect((await rig.client.request('run.get', { runId: run.runId })).run.output).toBe(
      'ok: still here',
    );
  });
});
