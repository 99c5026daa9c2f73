import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseModel } from './choose-model.js';

/** A Pi config dir with two credentialed local providers, `alpha/a1` and `zeta/z1`. */
function agentDirWith(settings?: Record<string, unknown>): string {
  const agentDir = mkdtempSync(join(tmpdir(), 'repa-models-'));
  const provider = (id: string) => ({
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai-completions',
    apiKey: 'test-key',
    models: [{ id }],
  });
  writeFileSync(
    join(agentDir, 'models.json'),
    JSON.stringify({ providers: { alpha: provider('a1'), zeta: provider('z1') } }),
  );
  if (settings) writeFileSync(join(agentDir, 'settings.json'), JSON.stringify(settings));
  return agentDir;
}

describe('chooseModel', () => {
  it('takes Pi’s defaultProvider/defaultModel from Pi’s settings, as pi does', async () => {
    const choice = await chooseModel({
      agentDir: agentDirWith({ defaultProvider: 'zeta', defaultModel: 'z1' }),
    });
    expect(choice).toMatchObject({ label: 'zeta/z1', offline: false });
  });

  it('falls back to Pi’s first credentialed model without a default in Pi’s settings', async () => {
    const choice = await chooseModel({ agentDir: agentDirWith() });
    expect(choice).toMatchObject({ label: 'alpha/a1', offline: false });
  });

  it('uses the offline responder when no model has credentials', async () => {
    const agentDir = mkdtempSync(join(tmpdir(), 'repa-models-empty-'));
    const choice = await chooseModel({ agentDir });
    expect(choice).toMatchObject({ label: 'repa-offline', offline: true });
  });

  it('names the closest models Pi knows for an unknown one', async () => {
    await expect(chooseModel({ agentDir: agentDirWith(), model: 'zeta/z2' })).rejects.toMatchObject(
      { code: 'not_found', details: { suggestions: expect.arrayContaining(['zeta/z1']) } },
    );
  });

  describe('readOnly', () => {
    it('creates nothing when Pi has no agent directory yet', async () => {
      const root = mkdtempSync(join(tmpdir(), 'repa-models-none-'));
      const agentDir = join(root, 'agent');
      const choice = await chooseModel({ agentDir, readOnly: true });
      expect(choice).toMatchObject({ label: 'repa-offline', offline: true });
      expect(existsSync(agentDir)).toBe(false);
    });

    it("reads auth.json's keys, leaving the file and its folder as they were", async () => {
      const agentDir = mkdtempSync(join(tmpdir(), 'repa-models-auth-'));
      const auth = '{"anthropic": {"type": "api_key", "key": "sk-ant-test"}}';
      writeFileSync(join(agentDir, 'auth.json'), auth);
      const choice = await chooseModel({ agentDir, readOnly: true });
      expect(choice.offline).toBe(false);
      expect(choice.label).toMatch(/^anthropic\//);
      expect(readFileSync(join(agentDir, 'auth.json'), 'utf8')).toBe(auth);
      expect(readdirSync(agentDir)).toEqual(['auth.json']);
    });

    it('names an auth.json that is not JSON', async () => {
      const agentDir = mkdtempSync(join(tmpdir(), 'repa-models-bad-'));
      writeFileSync(join(agentDir, 'auth.json'), '{ nope');
      await expect(chooseModel({ agentDir, readOnly: true })).rejects.toMatchObject({
        code: 'data_corrupt',
      });
    });
  });
});
