import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AuthOperationOptions,
  InMemoryCredentialStore,
  InMemoryModelsStore,
} from '@earendil-works/pi-ai';
import { ModelRuntime } from '@earendil-works/pi-coding-agent';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PiModels } from './pi-models.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const local = (id: string, extra: Record<string, unknown> = {}) => ({
  baseUrl: 'http://127.0.0.1:9/v1',
  api: 'openai-completions',
  apiKey: 'local-key',
  models: [{ id, contextWindow: 8192, ...extra }],
});

/** An empty Pi config dir, and a writer of its files. */
function agentDir(): { dir: string; write: (name: string, value: unknown) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'repa-pi-models-'));
  return {
    dir,
    write: (name, value) =>
      writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value)),
  };
}

describe('PiModels: the model a run uses when nothing names one', () => {
  it('is repa-offline only while no model has credentials, and follows auth.json edited by hand', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const { dir, write } = agentDir();
    const models = await PiModels.open({ agentDir: dir });
    expect((await models.decide()).decision).toMatchObject({
      model: 'repa-offline',
      source: 'no-credentials',
      offline: true,
      credentials: true,
      thinkingLevel: 'off',
    });
    write('auth.json', { anthropic: { type: 'api_key', key: 'sk-by-hand' } });
    expect((await models.decide()).decision).toMatchObject({
      model: expect.stringMatching(/^anthropic\//),
      source: 'pi-default',
      offline: false,
      connection: 'anthropic:auth-file',
    });
    rmSync(join(dir, 'auth.json'));
    expect((await models.decide()).decision.model).toBe('repa-offline');
  });

  it('takes Pi’s defaultProvider/defaultModel from Pi’s settings, as pi does, and sees it change', async () => {
    const { dir, write } = agentDir();
    write('models.json', { providers: { alpha: local('a1'), zeta: local('z1') } });
    const models = await PiModels.open({ agentDir: dir });
    expect((await models.decide()).decision.model).toBe('alpha/a1');
    write('settings.json', { defaultProvider: 'zeta', defaultModel: 'z1' });
    expect((await models.decide()).decision).toMatchObject({
      model: 'zeta/z1',
      source: 'pi-default',
    });
  });

  it('is the daemon’s --model when given; a level or a run still wins over it', async () => {
    const { dir, write } = agentDir();
    write('models.json', { providers: { alpha: local('a1'), zeta: local('z1') } });
    const models = await PiModels.open({ agentDir: dir, daemonModel: 'zeta/z1' });
    expect((await models.decide()).decision).toMatchObject({ model: 'zeta/z1', source: 'daemon' });
    expect(
      (await models.decide({ model: 'repa-offline', modelSource: 'space' })).decision,
    ).toMatchObject({ model: 'repa-offline', source: 'space', offline: true });
    await expect(PiModels.open({ agentDir: dir, daemonModel: 'zeta/z2' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('PiModels: a named model', () => {
  it('names the closest models Pi knows for an unknown one', async () => {
    const { dir, write } = agentDir();
    write('models.json', { providers: { alpha: local('a1'), zeta: local('z1') } });
    const models = await PiModels.open({ agentDir: dir });
    await expect(models.decide({ model: 'zeta/z2' })).rejects.toMatchObject({
      code: 'not_found',
      details: { suggestions: expect.arrayContaining(['zeta/z1']) },
    });
  });

  it('is decided without credentials (the caller refuses the run) and its thinking level clamped', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const { dir, write } = agentDir();
    write('models.json', {
      providers: { alpha: local('a1'), thinker: local('t1', { reasoning: true }) },
    });
    write('settings.json', { defaultThinkingLevel: 'medium' });
    const models = await PiModels.open({ agentDir: dir });
    const anthropic = (await models.list({ all: true })).find(
      (one) => one.provider === 'anthropic',
    );
    const { decision } = await models.decide({ model: anthropic?.id, modelSource: 'run' });
    expect(decision).toMatchObject({ credentials: false, source: 'run' });
    expect(decision.connection).toBeUndefined();
    // A model without reasoning runs at off; Pi's own default level counts when no level sets one.
    expect(
      (await models.decide({ model: 'alpha/a1', thinkingLevel: 'high', thinkingSource: 'space' }))
        .decision,
    ).toMatchObject({ thinkingLevel: 'off', thinkingSource: 'space' });
    expect((await models.decide({ model: 'thinker/t1' })).decision).toMatchObject({
      thinkingLevel: 'medium',
      thinkingSource: 'pi-default',
    });
  });
});

/** Pi's in-memory credential store, counting how often Pi reads it. */
class CountedCredentials extends InMemoryCredentialStore {
  reads = 0;

  override read(providerId: string, options?: AuthOperationOptions) {
    this.reads += 1;
    return super.read(providerId, options);
  }

  override list(options?: AuthOperationOptions) {
    this.reads += 1;
    return super.list(options);
  }
}

describe('PiModels: the credentials a decision reads', () => {
  it('reads none for repa-offline named by the daemon or a level, and reads them for a provider’s model', async () => {
    const { dir, write } = agentDir();
    write('models.json', { providers: { alpha: local('a1') } });
    const credentials = new CountedCredentials();
    const runtime = await ModelRuntime.create({
      credentials,
      modelsStore: new InMemoryModelsStore(),
      modelsPath: join(dir, 'models.json'),
      allowModelNetwork: false,
      refreshOnCreate: false,
    });
    const models = await PiModels.open({ agentDir: dir, daemonModel: 'repa-offline', runtime });
    credentials.reads = 0;
    expect((await models.decide()).decision).toMatchObject({
      model: 'repa-offline',
      source: 'daemon',
      credentials: true,
    });
    expect(
      (await models.decide({ model: 'repa-offline', modelSource: 'session' })).decision,
    ).toMatchObject({ model: 'repa-offline', source: 'session', credentials: true });
    expect(credentials.reads).toBe(0);
    expect(
      (await models.decide({ model: 'alpha/a1', modelSource: 'space' })).decision,
    ).toMatchObject({ model: 'alpha/a1', credentials: true, connection: 'alpha:models-json' });
    expect(credentials.reads).toBeGreaterThan(0);
  });
});

describe('PiModels.list', () => {
  it('says where each provider’s credentials come from, never the secret, and lists repa-offline', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-env-secret-value');
    const { dir, write } = agentDir();
    write('auth.json', { openai: { type: 'api_key', key: 'sk-file-secret-value' } });
    write('models.json', { providers: { local: local('small') } });
    const models = await PiModels.open({ agentDir: dir, daemonModel: 'local/small' });
    const listed = await models.list();
    const byProvider = (provider: string) => listed.find((model) => model.provider === provider);
    expect(byProvider('anthropic')).toMatchObject({
      credentials: true,
      credentialSource: 'environment',
      credentialVariable: 'ANTHROPIC_API_KEY',
    });
    expect(byProvider('openai')).toMatchObject({
      credentials: true,
      credentialSource: 'auth-file',
    });
    expect(listed.find((model) => model.id === 'local/small')).toMatchObject({
      credentialSource: 'models-json',
      contextWindow: 8192,
      default: true,
    });
    expect(listed.at(-1)).toMatchObject({ id: 'repa-offline', offline: true, default: false });
    const text = JSON.stringify(listed);
    for (const secret of ['sk-env-secret-value', 'sk-file-secret-value', 'local-key']) {
      expect(text).not.toContain(secret);
    }
  });

  it('puts the models without credentials after repa-offline with all', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const { dir } = agentDir();
    const listed = await (await PiModels.open({ agentDir: dir })).list({ all: true });
    expect(listed[0]).toMatchObject({ id: 'repa-offline', default: true, credentials: true });
    expect(listed.slice(1).every((model) => !model.credentials && !model.credentialSource)).toBe(
      true,
    );
  });

  it('names a models.json that does not parse, keeps the other models, and sees it repaired', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-env');
    const { dir, write } = agentDir();
    const models = await PiModels.open({ agentDir: dir });
    write('models.json', '{ "providers": { "local": ');
    const listed = await models.list();
    expect(listed.some((model) => model.provider === 'anthropic')).toBe(true);
    const error = models.configError();
    expect(error).toMatchObject({
      code: 'settings_corrupt',
      details: { file: join(dir, 'models.json') },
    });
    expect(error?.message).toContain('models.json');
    expect((await models.status()).configError?.code).toBe('settings_corrupt');
    write('models.json', { providers: { local: local('small') } });
    expect((await models.list()).some((model) => model.id === 'local/small')).toBe(true);
    expect(models.configError()).toBeUndefined();
  });
});
