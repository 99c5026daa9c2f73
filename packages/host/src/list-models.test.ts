import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listModels } from './list-models.js';

const SECRET_ENV = 'sk-env-secret-value';
const SECRET_FILE = 'sk-file-secret-value';
const saved = process.env.ANTHROPIC_API_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = saved;
});

function agentDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'repa-list-models-'));
  writeFileSync(
    join(dir, 'auth.json'),
    JSON.stringify({ openai: { type: 'api_key', key: SECRET_FILE } }),
  );
  writeFileSync(
    join(dir, 'models.json'),
    JSON.stringify({
      providers: {
        local: {
          baseUrl: 'http://127.0.0.1:9/v1',
          api: 'openai-completions',
          apiKey: 'local-key',
          models: [{ id: 'small', contextWindow: 8192 }],
        },
      },
    }),
  );
  return dir;
}

describe('listModels', () => {
  it('says where each provider’s credentials come from, never the secret', async () => {
    process.env.ANTHROPIC_API_KEY = SECRET_ENV;
    const models = await listModels({ agentDir: agentDir(), defaultModel: 'local/small' });
    const byProvider = (provider: string) => models.find((model) => model.provider === provider);
    expect(byProvider('anthropic')).toMatchObject({
      credentials: true,
      credentialSource: 'environment',
      credentialVariable: 'ANTHROPIC_API_KEY',
    });
    expect(byProvider('openai')).toMatchObject({
      credentials: true,
      credentialSource: 'auth-file',
    });
    expect(models.find((model) => model.id === 'local/small')).toMatchObject({
      credentials: true,
      credentialSource: 'models-json',
      contextWindow: 8192,
      default: true,
    });
    expect(models.every((model) => model.credentials)).toBe(true);
    const text = JSON.stringify(models);
    for (const secret of [SECRET_ENV, SECRET_FILE, 'local-key']) expect(text).not.toContain(secret);
  });

  it('lists the models without credentials too with all, after the credentialed ones', async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const models = await listModels({ agentDir: agentDir(), all: true });
    const anthropic = models.filter((model) => model.provider === 'anthropic');
    expect(anthropic.length).toBeGreaterThan(0);
    expect(anthropic.every((model) => !model.credentials && !model.credentialSource)).toBe(true);
    const firstWithout = models.findIndex((model) => !model.credentials);
    expect(models.slice(firstWithout).every((model) => !model.credentials)).toBe(true);
  });
});
