import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AnthropicEndpoint, startAnthropicEndpoint } from '@repa/fixtures';
import type { ModelDecision, RunInfo } from '@repa/protocol';
import { jsonLines, repa, repaJson } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// A daemon started with no model and no credentials (so on repa-offline), and Pi's own
// `anthropic` provider pointed by models.json at a local endpoint speaking the Anthropic Messages
// protocol: what a new user does, from `repa login` to a real model, without a restart (spec R71).
let endpoint: AnthropicEndpoint;
const sandbox = useDaemon({
  prepare: async (sandbox) => {
    endpoint = await startAnthropicEndpoint([
      {
        kind: 'message',
        blocks: [{ type: 'text', text: 'The tide turns every six hours.' }],
        usage: { input: 200, output: 8, cacheRead: 50, cacheWrite: 10 },
      },
    ]);
    endpoint.configure(sandbox.agentDir, { provider: 'anthropic' });
    writeFileSync(
      join(sandbox.agentDir, 'settings.json'),
      JSON.stringify({ retry: { enabled: true, maxRetries: 1, baseDelayMs: 1 } }),
    );
  },
  cleanup: () => endpoint?.close(),
});
const authFile = join(sandbox.agentDir, 'auth.json');

/** `repa run --json TEXT`: its start line and its final record. */
async function runJson(text: string, args: string[] = []) {
  const result = await repa(sandbox, ['run', '--json', ...args, text]);
  const lines = jsonLines(result.stdout);
  const start = lines.find((line) => line.kind === 'start') as Record<string, unknown> | undefined;
  const finished = lines.find((line) => line.kind === 'finished') as { run: RunInfo } | undefined;
  return { ...result, start, run: finished?.run };
}

const storedKey = () => JSON.parse(readFileSync(authFile, 'utf8')).anthropic?.key;
/** The model Pi chose once the key was stored (`anthropic/…`). */
let model = '';

describe('from repa-offline to a real model with repa login, no restart', () => {
  it('uses the key at the next run; doctor, models, the header and runs show agree', async () => {
    const offline = await repa(sandbox, ['run', 'What do the notes say about tides?']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain(
      '[repa] model: repa-offline (local responder, no language model) — no model has credentials, thinking off',
    );
    expect(endpoint.requests).toHaveLength(0);

    const login = await repa(sandbox, ['login', 'anthropic'], { input: 'sk-ant-local\n' });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/^Signed in: connection anthropic:auth-file$/m);
    const next =
      /^The next run in this space uses (anthropic\/\S+) — Pi's default among the models with credentials, thinking \w+; no restart needed\.$/m.exec(
        login.stdout,
      );
    expect(next, login.stdout).not.toBeNull();
    model = next?.[1] ?? '';

    const real = await repa(sandbox, ['run', 'When does the tide turn?']);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain(`[repa] model: ${model} — Pi's default`);
    expect(real.stdout).toContain('The tide turns every six hours.');
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0]?.headers['x-api-key']).toBe('sk-ant-local');
    expect(endpoint.requests[0]?.body.model).toBe(model.slice('anthropic/'.length));
    const runId = /\[succeeded\] run (\S+)/.exec(real.stdout)?.[1] ?? '';

    const show = await repa(sandbox, ['runs', 'show', runId]);
    expect(show.stdout).toMatch(new RegExp(`^model {6}${model} — Pi's default`, 'm'));
    expect(show.stdout).toMatch(/^connection anthropic:auth-file$/m);
    expect(show.stdout).toMatch(
      /^usage {6}200 in, 8 out, 268 total tokens, cache 50 read \/ 10 written/m,
    );
    const doctor = await repaJson<{
      models: { default: string; next: ModelDecision; credentials: unknown[]; available: string[] };
    }>(sandbox, ['doctor']);
    expect(doctor.json.models.next).toMatchObject({ model, source: 'pi-default' });
    expect(doctor.json.models.default).toBe(model);
    expect(doctor.json.models.credentials).toEqual([
      expect.objectContaining({ provider: 'anthropic', credentialSource: 'auth-file' }),
    ]);
    const models = await repaJson<{ default: string; next: ModelDecision }>(sandbox, ['models']);
    expect(models.json).toMatchObject({ default: model, next: { model } });
    const listed = await repa(sandbox, ['models']);
    expect(listed.stdout).toMatch(new RegExp(`^\\* ${model} .* auth-file$`, 'm'));
    expect(listed.stdout).toMatch(/^ {2}repa-offline .* none needed \(built in\)$/m);
  });

  it('goes offline again with model.id repa-offline, and back to Pi’s default when it is unset', async () => {
    const set = await repa(sandbox, ['settings', 'set', 'model.id', 'repa-offline']);
    expect(set.code, set.stderr).toBe(0);
    const offline = await runJson('What do the notes say about tides?');
    expect(offline.start).toMatchObject({ model: 'repa-offline', modelSource: 'space' });
    expect(offline.run).toMatchObject({ status: 'succeeded', model: 'repa-offline' });
    expect(offline.run?.usage).toBeUndefined();
    expect(endpoint.requests).toHaveLength(1);
    await repa(sandbox, ['settings', 'reset', 'model.id']);
    const real = await runJson('When does the tide turn?');
    expect(real.start).toMatchObject({ model, modelSource: 'pi-default', thinkingLevel: 'off' });
    expect(real.run).toMatchObject({ status: 'succeeded', model, modelSource: 'pi-default' });
    expect(endpoint.requests).toHaveLength(2);
  });

  it('builds the learning context on the space’s model, or on the one --model names', async () => {
    endpoint.replies = [
      { kind: 'message', blocks: [{ type: 'text', text: '## Working on\nTides.' }] },
    ];
    const built = await repa(sandbox, ['context', 'build', 'notes/a.md']);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain(`built by  ${model}\n`);
    expect(endpoint.requests).toHaveLength(3);
    const offline = await repa(sandbox, [
      'context',
      'build',
      '--model',
      'repa-offline',
      'notes/a.md',
    ]);
    expect(offline.stdout).toContain('built by  repa-offline (extractive');
  });
});

describe('bad input on the way', () => {
  it('refuses an empty key, storing nothing, and an unknown provider naming Pi’s', async () => {
    const empty = await repa(sandbox, ['login', 'anthropic'], { input: '\n' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('nothing stored');
    expect(empty.stdout).not.toContain('Signed in');
    expect(storedKey()).toBe('sk-ant-local');
    const unknown = await repa(sandbox, ['login', 'no-such-provider'], { input: 'x\n' });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Pi knows no provider no-such-provider. (not_found)');
    expect(unknown.stderr).toMatch(/Fix: Use one of Pi's providers: .*anthropic, .*openai/);
  });

  it('refuses a model typo with a did-you-mean, and after logout a model without credentials at acceptance', async () => {
    const typo = await repa(sandbox, ['settings', 'set', 'model.id', `${model}x`]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(`Did you mean ${model}`);
    const logout = await repa(sandbox, ['logout', 'anthropic']);
    expect(logout.stdout).toContain(
      "Signed out: Pi's stored credential for anthropic was removed.",
    );
    expect(logout.stdout).toContain('The next run in this space uses repa-offline');
    const set = await repa(sandbox, ['settings', 'set', 'model.id', model]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain(`${model} has no credentials yet`);
    const before = await repaJson<{ runs: unknown[] }>(sandbox, ['runs', 'list']);
    const refused = await repa(sandbox, ['run', '--json', 'Hello?']);
    await repa(sandbox, ['settings', 'reset', 'model.id']);
    expect(refused.code).toBe(1);
    const lines = jsonLines(refused.stdout);
    expect(lines.at(-1)).toMatchObject({ kind: 'error', code: 'auth_failed' });
    expect(lines.filter((line) => line.kind === 'accepted')).toEqual([]);
    // Nothing was recorded: the ledger has no new run.
    const after = await repaJson<{ runs: unknown[] }>(sandbox, ['runs', 'list']);
    expect(after.json.runs).toHaveLength(before.json.runs.length);
  });

  it('names a models.json that does not parse; the other models and offline runs keep working', async () => {
    writeFileSync(join(sandbox.agentDir, 'models.json'), '{"providers": {');
    const models = await repa(sandbox, ['models']);
    expect(models.code).toBe(0);
    expect(models.stderr).toContain(join(sandbox.agentDir, 'models.json'));
    expect(models.stderr).toContain('(settings_corrupt)');
    const doctor = await repa(sandbox, ['doctor']);
    expect(doctor.stdout).toMatch(/^config {4}Pi's configuration has an error: .*models\.json/m);
    const run = await repa(sandbox, ['run', 'What do the notes say about tides?']);
    expect(run.code, run.stderr).toBe(0);
    endpoint.configure(sandbox.agentDir, { provider: 'anthropic' });
  });
});
