import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo } from '@repa/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RepaApplication } from './repa-application.js';
import { tempAppDirectory } from './test/builders.js';
import { ended, listener, request } from './test/run-listener.js';

// An application on Pi's configuration in a real agent dir (no fixed model): every run's model
// is decided at its acceptance from the levels and Pi's credentials as they are then (spec R71).
let app: RepaApplication | undefined;
afterEach(async () => {
  await app?.close({ graceMs: 0 });
  app = undefined;
  vi.unstubAllEnvs();
});

/** A provider of Pi's models.json on a closed local port (runs on it fail unreachable). */
const provider = (id: string, apiKey?: string) => ({
  baseUrl: 'http://127.0.0.1:9/v1',
  api: 'openai-completions',
  ...(apiKey ? { apiKey } : {}),
  models: [{ id }],
});

async function open() {
  vi.stubEnv('ANTHROPIC_API_KEY', undefined);
  vi.stubEnv('OPENAI_API_KEY', undefined);
  const base = tempAppDirectory();
  const agentDir = join(base, 'agent');
  const space = join(base, 'space');
  mkdirSync(agentDir);
  mkdirSync(space);
  // Pi's own retries off: a run on the closed port fails at once.
  writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ retry: { enabled: false } }));
  app = await RepaApplication.open({ appDirectory: join(base, 'app'), agentDir });
  const opened = app;
  const { session } = await request(opened, 'session.create', { space });
  const writeModels = (providers: Record<string, unknown>) =>
    writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers }));
  let count = 0;
  const run = async (overrides?: {
    model?: string;
  }): Promise<{ accepted: RunInfo; done: RunInfo }> => {
    const { connection, events, next } = listener();
    const { run: accepted } = await opened.submit(
      {
        space,
        sessionId: session.sessionId,
        requestId: `r${++count}`,
        input: { type: 'text', text: 'What do the notes say?' },
        ...(overrides ? { overrides } : {}),
      },
      connection,
    );
    return { accepted, done: await ended(opened, accepted.runId, events, next) };
  };
  return { app: opened, agentDir, space, sessionId: session.sessionId, writeModels, run };
}

describe("a run's model, decided at acceptance", () => {
  it('follows Pi’s configuration without a restart, and the levels; repa-offline is a model like any other', async () => {
    const { app, space, writeModels, run } = await open();
    const first = await run();
    expect(first.accepted).toMatchObject({
      model: 'repa-offline',
      modelSource: 'no-credentials',
      thinkingLevel: 'off',
    });
    expect(first.done).toMatchObject({ status: 'succeeded', model: 'repa-offline' });
    // The local responder is no provider: no usage is claimed, no connection named.
    expect(first.done.usage).toBeUndefined();
    expect(first.done.connection).toBeUndefined();

    writeModels({ local: provider('a1', 'local-key') });
    const next = await request(app, 'models.next', { space });
    expect(next.choice).toMatchObject({
      model: 'local/a1',
      source: 'pi-default',
      credentials: true,
      connection: 'local:models-json',
    });
    const second = await run();
    expect(second.accepted).toMatchObject({
      model: 'local/a1',
      modelSource: 'pi-default',
      connection: 'local:models-json',
    });
    // The run went to the model it was accepted with (a closed port here).
    expect(second.done.error?.code).toBe('provider_unreachable');

    await request(app, 'settings.set', {
      level: 'space',
      space,
      key: 'model.id',
      value: 'repa-offline',
    });
    expect((await run()).accepted).toMatchObject({ model: 'repa-offline', modelSource: 'space' });
    await request(app, 'settings.reset', { level: 'space', space, key: 'model.id' });
    expect((await run()).accepted).toMatchObject({ model: 'local/a1', modelSource: 'pi-default' });
    expect((await run({ model: 'repa-offline' })).accepted).toMatchObject({
      model: 'repa-offline',
      modelSource: 'run',
    });
  });

  it('refuses a model without credentials with auth_failed before anything is recorded', async () => {
    const { app, space, sessionId, writeModels, run } = await open();
    writeModels({ keyless: provider('k1') });
    const refused = await run({ model: 'keyless/k1' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'auth_failed', details: { provider: 'keyless' } });
    const { runs } = await request(app, 'run.list', { space, sessionId });
    expect(runs).toEqual([]);
  });

  it('checks settings set model.id against the models Pi knows, with a did-you-mean', async () => {
    const { app, space, writeModels } = await open();
    writeModels({ local: provider('small', 'local-key') });
    const refused = await request(app, 'settings.set', {
      level: 'space',
      space,
      key: 'model.id',
      value: 'local/smal',
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'not_found',
      details: { suggestions: ['local/small'] },
    });
    const listed = await request(app, 'models.list', { space });
    expect(listed.next).toMatchObject({ model: 'local/small', source: 'pi-default' });
    expect(listed.models.map((model) => model.id)).toEqual(['local/small', 'repa-offline']);
  });

  it('lists the other models when models.json does not parse, naming the file and the error', async () => {
    const { app, agentDir } = await open();
    writeFileSync(join(agentDir, 'models.json'), '{"providers": ');
    const listed = await request(app, 'models.list', {});
    expect(listed.error).toMatchObject({
      code: 'settings_corrupt',
      details: { file: join(agentDir, 'models.json') },
    });
    expect(listed.models.map((model) => model.id)).toEqual(['repa-offline']);
    const doctor = await request(app, 'doctor', {});
    expect(doctor.models.configError?.message).toContain('models.json');
  });
});
