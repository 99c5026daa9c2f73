import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScriptedModel } from '@repa/host/testing';
import { RepaError } from '@repa/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { doctorFacts } from './doctor-facts.js';
import type { RepaApplication } from './repa-application.js';
import type { ConnectionContext } from './server/repa-handlers.js';
import { tempAppDirectory } from './test/builders.js';
import { openTestApplication } from './test/test-application.js';

const connection = {
  connectionId: 'test',
  transport: 'unix',
  notify: () => true,
  onClose: () => () => undefined,
} as ConnectionContext;

describe('RepaApplication context and doctor methods', () => {
  let app: RepaApplication | undefined;
  afterEach(async () => {
    await app?.close({ graceMs: 0 });
    app = undefined;
  });

  async function open(): Promise<{ space: string; agentDir: string }> {
    const opened = await openTestApplication();
    app = opened.app;
    const space = join(opened.base, 'space');
    mkdirSync(space);
    return { space, agentDir: join(opened.base, 'agent') };
  }

  it('context.get answers null, context.set creates then replaces it only at the expected revision', async () => {
    const { space } = await open();
    const handlers = app?.handlers() ?? {};
    const get = () => handlers['context.get']?.({ space }, connection);
    const set = (body: string, expectedRevision: string | null) =>
      handlers['context.set']?.({ space, body, sources: ['a.md'], expectedRevision }, connection);
    expect(await get()).toEqual({ context: null, provided: { value: true, source: 'default' } });

    const stale = await set('Nope.', '1')?.catch((error: unknown) => error);
    expect(RepaError.isInstance(stale) && stale.code).toBe('stale_version');

    const first = await set('Tides.', null);
    expect(await get()).toEqual({
      context: {
        body: 'Tides.',
        sources: ['a.md'],
        revision: first?.revision,
        updatedAt: expect.any(String),
        sourceStates: [{ path: 'a.md', sha256: null, state: 'unversioned' }],
      },
      provided: { value: true, source: 'default' },
    });
    const exists = await set('Again.', null)?.catch((error: unknown) => error);
    expect(RepaError.isInstance(exists) && exists.code).toBe('stale_version');

    const second = await set('Tides and moons.', first?.revision ?? '');
    expect(second?.revision).not.toBe(first?.revision);
    const onDisk = JSON.parse(readFileSync(join(space, '.repa', 'learning-context.json'), 'utf8'));
    expect(onDisk).toMatchObject({ body: 'Tides and moons.', revision: second?.revision });
  });

  it('serializes concurrent context.set calls of one space: one wins, the other is stale', async () => {
    const { space } = await open();
    const handlers = app?.handlers() ?? {};
    const results = await Promise.allSettled(
      ['One.', 'Two.'].map((body) =>
        handlers['context.set']?.({ space, body, sources: [], expectedRevision: null }, connection),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected');
    expect(RepaError.isInstance(rejected?.reason) && rejected.reason.code).toBe('stale_version');
  });

  it('context.get names a source changed or vanished since context.set hashed it', async () => {
    const { space } = await open();
    const handlers = app?.handlers() ?? {};
    writeFileSync(join(space, 'intro.md'), '# Tides\nThe moon pulls.\n');
    writeFileSync(join(space, 'notes.md'), 'Spring tides.\n');
    await handlers['context.set']?.(
      { space, body: 'B', sources: ['intro.md', './notes.md'], expectedRevision: null },
      connection,
    );
    const fresh = await handlers['context.get']?.({ space }, connection);
    expect(fresh?.context?.sources).toEqual(['intro.md', 'notes.md']);
    expect(fresh?.context?.sourceStates?.map((source) => source.state)).toEqual([
      'unchanged',
      'unchanged',
    ]);
    expect(fresh?.context?.sourceStates?.[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(space, 'intro.md'), '# Tides\nThe moon and the sun pull.\n');
    rmSync(join(space, 'notes.md'));
    const later = await handlers['context.get']?.({ space }, connection);
    expect(later?.context?.sourceStates?.map((source) => [source.path, source.state])).toEqual([
      ['intro.md', 'changed'],
      ['notes.md', 'vanished'],
    ]);
  });

  it('context.set refuses sources outside the space and bodies over the limit', async () => {
    const { space } = await open();
    const handlers = app?.handlers() ?? {};
    const attempt = (body: string, sources: string[]) =>
      handlers['context.set']?.({ space, body, sources, expectedRevision: null }, connection).then(
        () => null,
        (error: unknown) => (RepaError.isInstance(error) ? error : null),
      );
    expect((await attempt('B', ['../outside.md']))?.code).toBe('path_outside_space');
    expect((await attempt('B', ['/etc/passwd']))?.code).toBe('path_outside_space');
    symlinkSync(tmpdir(), join(space, 'escape'));
    writeFileSync(join(tmpdir(), 'repa-s18-outside.md'), 'x');
    expect((await attempt('B', ['escape/repa-s18-outside.md']))?.code).toBe('path_outside_space');
    const big = await attempt('x'.repeat(256 * 1024 + 1), []);
    expect(big?.code).toBe('invalid_request');
    expect(big?.message).toContain('262144');
    expect(existsSync(join(space, '.repa', 'learning-context.json'))).toBe(false);
  });

  it('context.set refuses a damaged file; with force it replaces it and keeps the damaged bytes beside it', async () => {
    const { space } = await open();
    const handlers = app?.handlers() ?? {};
    mkdirSync(join(space, '.repa'));
    writeFileSync(join(space, '.repa', 'learning-context.json'), '{ damaged');
    const refused = await handlers['context.set']?.(
      { space, body: 'New.', sources: [], expectedRevision: null },
      connection,
    ).catch((error: unknown) => error);
    expect(RepaError.isInstance(refused) && refused.code).toBe('context_unavailable');
    expect(readFileSync(join(space, '.repa', 'learning-context.json'), 'utf8')).toBe('{ damaged');
    const forced = await handlers['context.set']?.(
      { space, body: 'New.', sources: [], expectedRevision: null, force: true },
      connection,
    );
    expect(forced?.damagedFileKept).toMatch(/learning-context\.damaged-.*\.json$/);
    expect(readFileSync(forced?.damagedFileKept ?? '', 'utf8')).toBe('{ damaged');
    expect((await handlers['context.get']?.({ space }, connection))?.context?.body).toBe('New.');
  });

  it("context.get with a session reports the session's settings and the revision last provided to it", async () => {
    const { space } = await open();
    const handlers = app?.handlers() ?? {};
    const session = await handlers['session.create']?.({ space }, connection);
    const sessionId = session?.session.sessionId ?? '';
    await handlers['context.set']?.(
      { space, body: 'B', sources: [], expectedRevision: null },
      connection,
    );
    expect(await handlers['context.get']?.({ space, sessionId }, connection)).toMatchObject({
      provided: { value: true, source: 'default' },
      lastProvidedRevision: null,
    });
    await handlers['settings.set']?.(
      { space, sessionId, level: 'session', key: 'prompts.learningContext', value: false },
      connection,
    );
    expect((await handlers['context.get']?.({ space, sessionId }, connection))?.provided).toEqual({
      value: false,
      source: 'session',
    });
  });

  it('context.build with a model: progress to its connection, context.cancel while the model answers writes nothing', async () => {
    let cancelDuringAnswer = () => {};
    const opened = await openTestApplication({
      model: await createScriptedModel({ onRequest: () => cancelDuringAnswer() }),
    });
    app = opened.app;
    const space = join(opened.base, 'space');
    mkdirSync(space);
    writeFileSync(join(space, 'intro.md'), '# Tides\n');
    const handlers = app.handlers();
    const progress: string[] = [];
    const listening = {
      ...connection,
      notify: (_method: string, params: unknown) => {
        progress.push((params as { step: string }).step);
        return true;
      },
    } as ConnectionContext;
    const built = await handlers['context.build']?.(
      { space, buildId: 'b1', sources: ['intro.md'] },
      listening,
    );
    expect(built).toEqual({ revision: '1', model: 'faux/faux-1', extractive: false, cut: [] });
    expect(progress).toEqual(['reading', 'model', 'writing']);
    // The scripted model answers `ok: <request>`: the documents reached it.
    expect((await handlers['context.get']?.({ space }, connection))?.context?.body).toMatch(
      /^ok: <document path="intro.md">\n# Tides\n/,
    );

    const answers: unknown[] = [];
    cancelDuringAnswer = () => {
      void handlers['context.cancel']?.({ buildId: 'b2' }, connection).then((answer) =>
        answers.push(answer),
      );
    };
    const cancelled = await handlers['context.build']?.(
      { space, buildId: 'b2', sources: ['intro.md'] },
      connection,
    ).catch((error: unknown) => error);
    expect(RepaError.isInstance(cancelled) && cancelled.code).toBe('cancelled');
    expect(answers).toEqual([{ cancelled: true }]);
    expect((await handlers['context.get']?.({ space }, connection))?.context?.revision).toBe('1');
    expect(await handlers['context.cancel']?.({ buildId: 'b2' }, connection)).toEqual({
      cancelled: false,
    });

    cancelDuringAnswer = () => {};
    const stale = await handlers['context.build']?.(
      { space, buildId: 'b3', sources: ['intro.md'], expectedRevision: null },
      connection,
    ).catch((error: unknown) => error);
    expect(RepaError.isInstance(stale) && stale.code).toBe('stale_version');
    expect((await handlers['context.get']?.({ space }, connection))?.context?.revision).toBe('1');
  });

  it("doctor reports the application's model and Pi's agent directory, names of key variables only", async () => {
    const { agentDir } = await open();
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-secret-value';
    const facts = await app
      ?.handlers()
      .doctor?.({}, connection)
      .finally(() => {
        if (previous === undefined) delete process.env.OPENAI_API_KEY;
        else process.env.OPENAI_API_KEY = previous;
      });
    // The application's fixed (faux) model stands in for Pi's configuration and is its default.
    expect(facts?.models).toMatchObject({
      default: 'faux/faux-1',
      daemonModel: 'faux/faux-1',
      offline: false,
      available: expect.arrayContaining(['faux/faux-1', expect.stringMatching(/^openai\//)]),
    });
    // Where each provider's credentials come from: the variable by name, never its value.
    expect(facts?.models.credentials).toContainEqual(
      expect.objectContaining({
        provider: 'openai',
        credentialSource: 'environment',
        credentialVariable: 'OPENAI_API_KEY',
      }),
    );
    expect(facts?.pi).toMatchObject({ agentDir, exists: false, authJson: false });
    expect(facts?.pi.keyVariables).toContain('ANTHROPIC_API_KEY');
    expect(facts?.pi.keyVariablesSet).toContain('OPENAI_API_KEY');
    expect(JSON.stringify(facts)).not.toContain('sk-secret-value');
  });

  it("doctor's facts say the sandbox cannot start when no bwrap is on the PATH searched", async () => {
    const root = tempAppDirectory();
    const emptyBin = join(root, 'empty-bin');
    mkdirSync(emptyBin, { recursive: true });
    const facts = await doctorFacts({ agentDir: join(root, 'agent'), env: { PATH: emptyBin } });
    expect(facts.sandbox).toMatchObject({
      bwrap: null,
      ready: false,
      error: { code: 'sandbox_unavailable' },
    });
    rmSync(root, { recursive: true, force: true });
  });
});
