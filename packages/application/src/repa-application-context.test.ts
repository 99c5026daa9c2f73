import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScriptedModel } from '@repa/host/testing';
import { RepaError } from '@repa/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { RepaApplication } from './repa-application.js';
import type { ConnectionContext } from './server/repa-handlers.js';
import { tempAppDirectory } from './test/builders.js';

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
  });

  async function open(): Promise<{ space: string; agentDir: string }> {
    const base = tempAppDirectory();
    const space = join(base, 'space');
    mkdirSync(space);
    const agentDir = join(base, 'agent');
    app = await RepaApplication.open({
      appDirectory: join(base, 'app'),
      agentDir,
      model: await createScriptedModel(),
    });
    return { space, agentDir };
  }

  it('context.get answers null, context.set creates then replaces it only at the expected revision', async () => {
    const { space } = await open();
    const handlers = app?.handlers() ?? {};
    const get = () => handlers['context.get']?.({ space }, connection);
    const set = (body: string, expectedRevision: string | null) =>
      handlers['context.set']?.({ space, body, sources: ['a.md'], expectedRevision }, connection);
    expect(await get()).toEqual({ context: null });

    const stale = await set('Nope.', '1')?.catch((error: unknown) => error);
    expect(RepaError.isInstance(stale) && stale.code).toBe('stale_version');

    const first = await set('Tides.', null);
    expect(await get()).toEqual({
      context: { body: 'Tides.', sources: ['a.md'], revision: first?.revision },
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
    expect(facts?.models).toEqual({
      default: app?.modelLabel,
      offline: true,
      available: [],
    });
    expect(facts?.pi).toMatchObject({ agentDir, exists: false, authJson: false });
    expect(facts?.pi.keyVariables).toContain('ANTHROPIC_API_KEY');
    expect(facts?.pi.keyVariablesSet).toContain('OPENAI_API_KEY');
    expect(JSON.stringify(facts)).not.toContain('sk-secret-value');
  });
});
