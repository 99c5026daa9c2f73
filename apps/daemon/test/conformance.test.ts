// Protocol v1 conformance: a client that knows only schema/v1.json and raw frames drives
// a real daemon process (repa-offline) through every method. Every message it sends and receives is
// validated with an independent JSON Schema validator (conformance-kit.ts); any violation fails the
// test. The schema's own checks (its validator, its loose spots) are in conformance-schema.test.ts.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doc, type Json, SchemaClient, startDaemon, violations } from './conformance-kit.js';
import { driveStudy } from './conformance-study.js';
import { driveTutorCheck } from './conformance-study-check.js';

// A 1×1 PNG.
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('protocol v1 conformance against a real daemon', () => {
  let daemon: ChildProcess;
  let root: string;
  let socketPath: string;
  let space: string;
  const clients: SchemaClient[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'repa-conformance-'));
    space = join(root, 'space');
    mkdirSync(join(space, 'notes'), { recursive: true });
    writeFileSync(join(space, 'notes', 'a.md'), '# Tides\n\nThe tide turns every six hours.\n');
    ({ daemon, socketPath } = await startDaemon(root));
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    if (daemon !== undefined && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGKILL');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  async function open(): Promise<SchemaClient> {
    const client = await SchemaClient.open(socketPath);
    clients.push(client);
    return client;
  }

  async function result(client: SchemaClient, method: string, params: unknown): Promise<Json> {
    const answer = await client.call(method, params);
    expect(answer, `${method}: ${JSON.stringify(answer)}`).toHaveProperty('result');
    return answer.result as Json;
  }

  function finished(runId: string) {
    return (n: Json) => {
      const params = n.params as { runId: string; event: { type: string; status?: string } };
      return (
        params.runId === runId &&
        params.event.type === 'status' &&
        ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(params.event.status ?? '')
      );
    };
  }

  it('drives every method with schema-valid messages both ways', async () => {
    const client = await open();
    const called = new Set<string>();
    const call = async (method: string, params: unknown) => {
      called.add(method);
      return result(client, method, params);
    };
    await call('initialize', {
      protocolVersions: ['v1'],
      client: { name: 'conformance', version: '1' },
    });
    await call('doctor', {});
    await call('models.list', { all: true });
    // Pi's own API-key login, its secret prompt answered over the same connection.
    const login = call('login.start', {
      provider: 'anthropic',
      type: 'api_key',
      loginId: 'login-1',
    });
    const prompt = await client.waitFor(
      (n) => n.method === 'login.progress' && (n.params as { kind: string }).kind === 'prompt',
    );
    expect(
      await call('login.answer', {
        loginId: 'login-1',
        promptId: (prompt.params as { promptId: string }).promptId,
        value: 'sk-conformance',
      }),
    ).toEqual({ accepted: true });
    // The key is stored; the daemon's --model still picks the next run's model.
    expect(await login).toMatchObject({
      connection: 'anthropic:auth-file',
      next: { model: 'repa-offline', source: 'daemon' },
    });
    // A login the learner closes before answering: cancelled, its start answered with `cancelled`.
    called.add('login.start');
    const closing = client.call('login.start', {
      provider: 'anthropic',
      type: 'api_key',
      loginId: 'login-2',
    });
    await client.waitFor((n) => {
      const params = n.params as { loginId?: string; kind?: string };
      return (
        n.method === 'login.progress' && params.loginId === 'login-2' && params.kind === 'prompt'
      );
    });
    expect(await call('login.cancel', { loginId: 'login-2' })).toEqual({ cancelled: true });
    expect(await closing).toMatchObject({ error: { data: { code: 'cancelled' } } });
    expect(await call('login.cancel', { loginId: 'login-2' })).toEqual({ cancelled: false });
    await call('space.open', { root: space });
    expect(await call('space.list', {})).toMatchObject({
      spaces: [{ root: space, missing: false }],
    });
    const { session } = (await call('session.create', { space, title: 'conformance' })) as {
      session: { sessionId: string };
    };
    const { sessionId } = session;
    await call('session.list', { space });
    // Following the session: its runs come as `session.run` notifications too (checked by schema).
    await call('session.subscribe', { space, sessionId });
    await call('files.list', { space });
    await call('files.read', { space, path: 'notes/a.md' });
    const submitted = (await call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-1',
      input: { type: 'text', text: 'Read notes/a.md and tell me about tides.' },
    })) as { run: { runId: string } };
    const runId = submitted.run.runId;
    await client.waitFor(finished(runId));
    await call('run.get', { runId });
    // The one naming rule, on the daemon's side: `latest` and a prefix name this run and session.
    expect(await call('run.resolve', { run: 'latest', space, sessionId })).toMatchObject({
      run: { runId },
    });
    expect(await call('session.resolve', { space, session: sessionId.slice(0, 8) })).toMatchObject({
      session: { sessionId },
    });
    await call('run.list', { space, sessionId, status: 'succeeded', limit: 10 });
    await call('run.subscribe', { runId });
    const cancelled = await client.call('run.cancel', { runId });
    called.add('run.cancel');
    expect('result' in cancelled || 'error' in cancelled).toBe(true);
    const retried = (await call('run.retry', { runId, requestId: 'conformance-2' })) as {
      run: { runId: string };
    };
    await client.waitFor(finished(retried.run.runId));
    // Only an interrupted or failed run resumes: a succeeded one is a schema-valid refusal.
    const resumed = await client.call('run.resume', { runId, requestId: 'conformance-5' });
    called.add('run.resume');
    expect(resumed).toMatchObject({ error: { data: { code: 'invalid_request' } } });
    // The input's optional members and a queued delivery, through the same schema both ways.
    const queued = (await call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-3',
      input: {
        type: 'text',
        text: 'What do the attached notes and this picture say?',
        images: [{ kind: 'data', data: PNG_1X1, mimeType: 'image/png' }],
        attachments: [{ path: 'notes/a.md' }],
      },
      delivery: 'queue',
    })) as { run: { runId: string } };
    await client.waitFor(finished(queued.run.runId));
    expect(
      client.notifications.some(
        (message) =>
          (message as { params?: { runId?: string; event?: { type?: string } } }).params?.event
            ?.type === 'sources-attached',
      ),
    ).toBe(true);
    const steer = await client.call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-4',
      input: { type: 'text', text: 'Steer into nothing.' },
      delivery: 'steer',
    });
    expect(steer).toMatchObject({ error: { data: { code: 'no_active_run' } } });
    // A save that waits for the learner (`tools.edits` ask for this run), refused with a reason.
    const asking = (await call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-6',
      input: { type: 'text', text: '*** Begin Patch\n*** Add File: notes/b.md\n+b\n*** End Patch' },
      overrides: { edits: 'ask' },
    })) as { run: { runId: string } };
    const request = await client.waitFor(
      (n) =>
        n.method === 'run.event' &&
        (n.params as { event: { type: string } }).event.type === 'approval-request',
    );
    const { approvalId } = (request.params as { event: { approvalId: string } }).event;
    expect(
      await call('run.approve', {
        runId: asking.run.runId,
        approvalId,
        answer: 'refuse',
        reason: 'Not now.',
      }),
    ).toMatchObject({ answered: true, approval: { decision: 'refused', reason: 'Not now.' } });
    await client.waitFor(finished(asking.run.runId));
    await call('session.history', { space, sessionId });
    expect(client.notifications.some((message) => message.method === 'session.run')).toBe(true);
    expect(await call('session.unsubscribe', { space, sessionId })).toEqual({ unsubscribed: true });
    await call('settings.get', { space, sessionId });
    await call('settings.set', {
      space,
      level: 'space',
      key: 'prompts.fileChanges',
      value: 'diff',
    });
    await call('settings.set', {
      space,
      sessionId,
      level: 'session',
      key: 'prompts.base',
      value: null,
      expectedRevision: 0,
    });
    await call('settings.reset', { space, level: 'space', key: 'prompts.fileChanges' });
    await call('context.get', { space });
    await call('context.set', {
      space,
      body: 'Tides turn every six hours.',
      sources: ['notes/a.md'],
      expectedRevision: null,
    });
    await call('context.get', { space, sessionId });
    const built = (await call('context.build', {
      space,
      buildId: 'conformance-build',
      sources: ['notes/a.md'],
    })) as { revision: string };
    expect(built.revision).toEqual(expect.any(String));
    expect(
      client.notifications.some(
        (message) => (message as { method?: string }).method === 'context.progress',
      ),
    ).toBe(true);
    await call('context.cancel', { buildId: 'conformance-build' });
    // A plain folder Repa made a space starts trusted (spec R13).
    expect(await call('space.trust', { space, trusted: true })).toMatchObject({
      trusted: true,
      wasTrusted: true,
    });
    expect(await call('session.rename', { space, sessionId, title: 'Tides' })).toMatchObject({
      session: { sessionId, title: 'Tides' },
    });
    expect(await call('models.next', { space, sessionId })).toMatchObject({
      choice: { model: 'repa-offline' },
    });
    expect(await call('login.logout', { provider: 'anthropic', space })).toMatchObject({
      removed: true,
    });
    expect(await call('run.diff', { runId })).toMatchObject({ runId, files: [] });
    expect(await call('run.rewind', { runId, preview: true })).toMatchObject({
      rewind: expect.any(Object),
    });
    expect(await call('session.export', { space, sessionId, format: 'markdown' })).toMatchObject({
      content: expect.stringContaining('Read notes/a.md and tell me about tides.'),
    });
    // A session this small has nothing to compact: a schema-valid refusal.
    const compacted = await client.call('session.compact', {
      space,
      sessionId,
      instructions: 'Keep the tides.',
    });
    called.add('session.compact');
    expect(compacted).toMatchObject({ error: { data: { code: 'invalid_request' } } });
    expect(await call('run.prune', { endedBefore: '2000-01-01T00:00:00Z' })).toEqual({
      pruned: 0,
      imagesRemoved: 0,
    });
    // An outside file granted to the space, listed and withdrawn.
    const book = join(root, 'book.md');
    writeFileSync(book, '# Chapter 3\n\nEnzymes lower the activation energy.\n');
    expect(await call('materials.add', { path: book, id: 'ch3', space })).toMatchObject({
      material: { id: 'ch3' },
    });
    await call('materials.list', { space });
    await call('materials.remove', { id: 'ch3' });
    // A local Pi package (a prompt template), added for the learner, listed and removed.
    const pkg = join(root, 'pkg');
    mkdirSync(join(pkg, 'prompts'), { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      '{"name":"conformance-pkg","keywords":["pi-package"]}',
    );
    writeFileSync(join(pkg, 'prompts', 'recap.md'), 'Recap the notes.\n');
    await call('packages.add', { source: pkg });
    await call('packages.list', { space });
    await call('packages.remove', { source: pkg });
    await driveStudy({ call, ended: (runId) => client.waitFor(finished(runId)), space, sessionId });
    await driveTutorCheck({
      call,
      ended: (runId) => client.waitFor(finished(runId)),
      space,
      sessionId,
    });
    expect(await call('session.delete', { space, sessionId })).toMatchObject({ sessionId });
    expect([...called].sort()).toEqual(Object.keys(doc.methods).sort());
    expect(client.notifications.length).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });

  it('answers every kind of bad input with schema-valid JSON-RPC errors', async () => {
    const fresh = await open();
    const early = await fresh.call('run.list', {});
    expect(early.error).toMatchObject({ code: -32000, data: { code: 'not_initialized' } });
    // What the schema refuses for initialize the daemon refuses as invalid params, naming the field.
    for (const params of [{}, { protocolVersions: [] }]) {
      const refused = await fresh.callInvalid('initialize', params);
      expect(refused.error).toMatchObject({ code: -32602, data: { code: 'invalid_request' } });
      expect(JSON.stringify(refused.error)).toContain('params.protocolVersions');
    }
    const unknownVersion = await fresh.call('initialize', { protocolVersions: ['v0'] });
    expect(unknownVersion.error).toMatchObject({ data: { code: 'unsupported_version' } });
    await result(fresh, 'initialize', { protocolVersions: ['v1'] });
    const unknown = await fresh.callInvalid('no.such.method', {});
    expect(unknown.error).toMatchObject({ code: -32601, data: { code: 'method_not_found' } });
    const typo = await fresh.callInvalid('run.list', { limt: 5 });
    expect(typo.error).toMatchObject({ code: -32602, data: { code: 'invalid_request' } });
    const badValue = await fresh.callInvalid('settings.set', {
      space,
      level: 'space',
      key: 'prompts.fileChanges',
      value: 'sometimes',
    });
    expect(badValue.error).toMatchObject({ code: -32602 });
    const noSpace = await fresh.callInvalid('settings.set', {
      level: 'space',
      key: 'prompts.append',
      value: '',
    });
    expect(noSpace.error).toMatchObject({ data: { code: 'invalid_request' } });
    const parse = await fresh.raw('{"jsonrpc":"2.0",\n');
    expect(parse.error).toMatchObject({ code: -32700 });
    const notRequest = await fresh.raw('{"jsonrpc":"1.0","id":"x","method":"run.list"}\n');
    expect(notRequest).toMatchObject({ id: 'x', error: { code: -32600 } });
    const empty = await fresh.raw('[]\n');
    expect(empty.error).toMatchObject({ code: -32600 });
    const answers = await fresh.batch([
      { jsonrpc: '2.0', id: 900, method: 'run.list', params: { limit: 1 } },
      { jsonrpc: '2.0', method: 'run.list', params: {} },
      { jsonrpc: '2.0', id: 901, method: 'no.such.method' },
    ]);
    expect(answers.map((answer) => answer.id).sort()).toEqual([900, 901]);
    expect(violations).toEqual([]);
  });
});
