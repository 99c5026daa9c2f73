import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { RepaError } from '@repa/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LoginStep, loginProvider, logoutProvider } from '../src/models/login-provider.js';
import { PiModels } from '../src/models/pi-models.js';

const run = promisify(execFile);

/** Pi's own CLI entry (what `pi` runs). */
const piCli = fileURLToPath(
  new URL('../node_modules/@earendil-works/pi-coding-agent/dist/cli.js', import.meta.url),
);

function agentDir(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'repa-login-')), 'agent');
  mkdirSync(dir);
  return dir;
}

/** Pi's models of a (daemon's) agent dir. */
function modelsOf(dir: string): Promise<PiModels> {
  return PiModels.open({ agentDir: dir });
}

/** The providers with a credential in Pi's auth.json (none when it does not exist). */
/** Stores an Anthropic key (`sk-stored-key`) through Pi's login, as `repa login` does. */
function storeAnthropicKey(models: PiModels): Promise<unknown> {
  return loginProvider({
    models,
    provider: 'anthropic',
    type: 'api_key',
    onStep: () => {},
    answer: async () => 'sk-stored-key',
  });
}

function storedProviders(dir: string): string[] {
  const file = join(dir, 'auth.json');
  return existsSync(file) ? Object.keys(JSON.parse(readFileSync(file, 'utf8'))) : [];
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('loginProvider', () => {
  it("stores an API key through Pi's own prompt and reports the connection it configured", async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const dir = agentDir();
    const models = await modelsOf(dir);
    expect((await models.decide()).decision).toMatchObject({
      model: 'repa-offline',
      source: 'no-credentials',
    });
    const steps: LoginStep[] = [];
    const result = await loginProvider({
      models,
      provider: 'anthropic',
      type: 'api_key',
      onStep: (step) => steps.push(step),
      answer: async (promptId) => {
        expect(promptId).toBe(steps.at(-1)?.promptId);
        return 'sk-test-key';
      },
    });
    expect(result.connection).toBe('anthropic:auth-file');
    expect(steps.filter((step) => step.kind === 'prompt')).toEqual([
      expect.objectContaining({ promptType: 'secret', promptId: 'p1' }),
    ]);
    const auth = JSON.parse(readFileSync(join(dir, 'auth.json'), 'utf8'));
    expect(auth.anthropic).toEqual({ type: 'api_key', key: 'sk-test-key' });
    const listed = (await models.list()).filter((model) => !model.offline);
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed.map((model) => `${model.provider}:${model.credentialSource}`))).toEqual(
      new Set(['anthropic:auth-file']),
    );
    // The same runtime's next decision uses the key at once: Pi's default among Anthropic's models.
    expect((await models.decide()).decision).toMatchObject({
      model: expect.stringMatching(/^anthropic\//),
      source: 'pi-default',
      credentials: true,
      connection: 'anthropic:auth-file',
    });
  });

  it('refuses an empty or blank key: nothing is stored and the provider keeps its state', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const dir = agentDir();
    const models = await modelsOf(dir);
    for (const key of ['', '   \t']) {
      await expect(
        loginProvider({
          models,
          provider: 'anthropic',
          type: 'api_key',
          onStep: () => {},
          answer: async () => key,
        }),
      ).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining('nothing stored'),
      });
    }
    expect(storedProviders(dir)).toEqual([]);
  });

  it('stores the key without the spaces and line end a paste brings, and names a shadowed variable', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-from-env');
    const dir = agentDir();
    const result = await loginProvider({
      models: await modelsOf(dir),
      provider: 'anthropic',
      type: 'api_key',
      onStep: () => {},
      answer: async () => '  sk-pasted \n',
    });
    expect(JSON.parse(readFileSync(join(dir, 'auth.json'), 'utf8')).anthropic.key).toBe(
      'sk-pasted',
    );
    expect(result).toEqual({
      connection: 'anthropic:auth-file',
      environmentVariable: 'ANTHROPIC_API_KEY',
    });
  });

  it('refuses an unknown provider with not_found, naming the providers Pi knows', async () => {
    const error = await loginProvider({
      models: await modelsOf(agentDir()),
      provider: 'no-such-provider',
      type: 'api_key',
      onStep: () => {},
      answer: async () => 'x',
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'not_found',
      fix: expect.stringContaining('anthropic'),
      details: { providers: expect.arrayContaining(['anthropic', 'openai']) },
    });
    expect((error as RepaError).details?.providers).not.toContain('repa-offline');
  });

  it('times out while it waits for an answer, and stores nothing', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const dir = agentDir();
    const error = await loginProvider({
      models: await modelsOf(dir),
      provider: 'anthropic',
      type: 'api_key',
      timeoutMs: 50,
      onStep: () => {},
      answer: (_promptId, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'cancelled',
      message: expect.stringContaining('timed out'),
    });
    expect(storedProviders(dir)).toEqual([]);
  });

  it('is cancelled while it waits for an answer, and stores nothing', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const dir = agentDir();
    const controller = new AbortController();
    const login = loginProvider({
      models: await modelsOf(dir),
      provider: 'anthropic',
      type: 'api_key',
      signal: controller.signal,
      onStep: () => {},
      answer: (_promptId, signal) =>
        new Promise((_resolve, reject) => {
          const stop = () => reject(new Error('aborted'));
          signal?.addEventListener('abort', stop, { once: true });
          controller.signal.addEventListener('abort', stop, { once: true });
          controller.abort();
        }),
    });
    const error = await login.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RepaError);
    expect((error as RepaError).code).toBe('cancelled');
    expect(storedProviders(dir)).not.toContain('anthropic');
  });
});

describe("loginProvider with Pi's OAuth flow", () => {
  it('relays the address to open and the code prompt, and fails a mismatched code as auth_failed', async () => {
    const dir = agentDir();
    const steps: LoginStep[] = [];
    const error = await loginProvider({
      models: await modelsOf(dir),
      provider: 'anthropic',
      type: 'oauth',
      onStep: (step) => steps.push(step),
      // A redirect address whose state is not the one Pi sent: Pi refuses it before any network call.
      answer: async () => 'http://localhost:53692/callback?code=abc&state=not-the-verifier',
    }).catch((caught: unknown) => caught);
    expect(steps[0]).toMatchObject({ kind: 'auth_url', url: expect.stringMatching(/^https:\/\//) });
    expect(steps).toContainEqual(
      expect.objectContaining({ kind: 'prompt', promptType: 'manual_code', promptId: 'p1' }),
    );
    expect(error).toBeInstanceOf(RepaError);
    expect((error as RepaError).code).toBe('auth_failed');
    expect(storedProviders(dir)).not.toContain('anthropic');
  });
});

describe('repa models and pi --list-models', () => {
  it('agree on which models have credentials (same agent dir, an env key and a stored key)', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env-key');
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const dir = agentDir();
    const models = await modelsOf(dir);
    await storeAnthropicKey(models);
    const { stdout } = await run(process.execPath, [piCli, '--list-models'], {
      env: {
        ...process.env,
        HOME: dirname(dir),
        PI_CODING_AGENT_DIR: dir,
        PI_OFFLINE: '1',
      },
      maxBuffer: 16 * 1024 * 1024,
    });
    const fromPi = stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .map(([provider, id]) => `${provider}/${id}`);
    const ours = (await models.list()).filter((model) => !model.offline);
    expect(fromPi.some((id) => id.startsWith('openai/'))).toBe(true);
    expect(fromPi.some((id) => id.startsWith('anthropic/'))).toBe(true);
    expect(ours.map((model) => model.id).sort()).toEqual([...fromPi].sort());
    const sources = new Set(ours.map((model) => `${model.provider}:${model.credentialSource}`));
    expect(sources.has('anthropic:auth-file')).toBe(true);
    expect(sources.has('openai:environment')).toBe(true);
  });
});

describe('logoutProvider', () => {
  it("removes Pi's stored key through Pi; the next decision falls back, a variable is told", async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const dir = agentDir();
    const models = await modelsOf(dir);
    await storeAnthropicKey(models);
    expect(await logoutProvider(models, 'anthropic')).toEqual({ removed: true });
    expect(storedProviders(dir)).toEqual([]);
    expect((await models.decide()).decision.model).toBe('repa-offline');
    expect(await logoutProvider(models, 'anthropic')).toEqual({ removed: false });
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-env');
    expect(await logoutProvider(models, 'anthropic')).toEqual({
      removed: false,
      connection: 'anthropic:environment',
    });
    await expect(logoutProvider(models, 'nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});
