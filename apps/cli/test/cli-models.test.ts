import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RunInfo } from '@repa/protocol';
import { jsonLines, repa, repaJson } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useEndpointDaemon } from './commands-sandbox.js';

// A daemon on a model served by the test (an OpenAI-compatible endpoint in Pi's models.json), with
// Pi's own retry settings made quick (1 ms backoff) in Pi's settings.json.
const run = promisify(execFile);
const { sandbox, endpoint } = useEndpointDaemon([], {
  piSettings: { retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 } },
});

function finishedRun(stdout: string): RunInfo {
  const line = jsonLines(stdout).find((entry) => entry.kind === 'finished') as
    | { run: RunInfo }
    | undefined;
  if (!line) throw new Error(`No finished line in: ${stdout}`);
  return line.run;
}

describe('repa run against a provider that fails', () => {
  it('shows Pi’s retries after a 429, then the reply, and runs show has the provider’s usage', async () => {
    endpoint().replies = [
      { kind: 'status', status: 429, message: 'Rate limit reached' },
      { kind: 'text', text: 'Hello after waiting.', usage: { prompt: 120, completion: 7 } },
    ];
    const run = await repa(sandbox, ['run', 'Say hello.']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^\[retry\] Pi retries the model call \(attempt 1 of 2\) in 1 ms: 429.*Rate limit reached/m,
    );
    expect(run.stdout).toContain('Hello after waiting.');
    const runId = /\[succeeded\] run (\S+)/.exec(run.stdout)?.[1] ?? '';
    const show = await repa(sandbox, ['runs', 'show', runId]);
    expect(show.stdout).toMatch(
      /^usage {6}120 in, 7 out, 127 total tokens over 2 calls \(provider's figures\)/m,
    );
    const json = await repaJson<{ run: RunInfo }>(sandbox, ['runs', 'show', runId]);
    expect(json.json.run.usage).toMatchObject({ input: 120, output: 7, totalTokens: 127 });
  });

  it('streams the retries as retry events in --json', async () => {
    endpoint().replies = [
      { kind: 'status', status: 429, message: 'Rate limit reached' },
      { kind: 'text', text: 'Done.' },
    ];
    const run = await repa(sandbox, ['run', '--json', 'Say done.']);
    expect(run.code, run.stderr).toBe(0);
    const retries = jsonLines(run.stdout)
      .filter((line) => line.kind === 'event')
      .map((line) => (line as { event: { type: string } }).event)
      .filter((event) => event.type === 'retry');
    expect(retries).toEqual([
      {
        type: 'retry',
        attempt: 1,
        maxAttempts: 2,
        delayMs: 1,
        reason: expect.stringContaining('429'),
      },
    ]);
  });

  it('fails a 401 as auth_failed, not as a bug, and writes it to the daemon log with the run id', async () => {
    endpoint().replies = [{ kind: 'status', status: 401, message: 'Incorrect API key provided' }];
    const run = await repa(sandbox, ['run', '--json', 'Hello?']);
    expect(run.code).toBe(1);
    const failed = finishedRun(run.stdout);
    expect(failed.error?.code).toBe('auth_failed');
    expect(run.stderr).toContain('Incorrect API key provided');
    expect(run.stderr).not.toContain('bug in Repa');
    const log = readFileSync(join(sandbox.appDir, 'run', 'daemon.log'), 'utf8');
    expect(log).toMatch(
      new RegExp(
        `^\\S+ run ${failed.runId} failed: auth_failed: .*Incorrect API key provided`,
        'm',
      ),
    );
  });
});

describe('repa run --model --thinking', () => {
  it('sends this run to the named model with the reasoning option and records the override', async () => {
    endpoint().replies = [{ kind: 'text', text: 'Thought about it.' }];
    const run = await repa(sandbox, [
      'run',
      '--model',
      'test/thinker',
      '--thinking',
      'high',
      'Think.',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(endpoint().requests.at(-1)).toMatchObject({
      model: 'thinker',
      reasoning_effort: 'high',
    });
    const runId = /\[succeeded\] run (\S+)/.exec(run.stdout)?.[1] ?? '';
    const show = await repa(sandbox, ['runs', 'show', runId]);
    expect(show.stdout).toMatch(/^model {6}test\/thinker — this run only$/m);
    expect(show.stdout).toMatch(/^thinking {3}high \(this run only\)$/m);
    expect(show.stdout).toMatch(/^connection test:models-json$/m);
  });

  it('fails an unknown model as not_found with a did-you-mean', async () => {
    const run = await repa(sandbox, ['run', '--model', 'test/thinkr', 'Think.']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Did you mean test/thinker');
  });

  it('refuses an unknown thinking level as a usage error', async () => {
    const run = await repa(sandbox, ['run', '--thinking', 'extreme', 'Think.']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown thinking level extreme');
  });
});

describe('repa models', () => {
  it('lists the credentialed models with their source, marks the default, and never shows the key', async () => {
    const list = await repa(sandbox, ['models']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^\* test\/plain +128k +no +models-json$/m);
    expect(list.stdout).toMatch(/^ {2}test\/thinker +128k +yes +models-json$/m);
    expect(list.stdout).toMatch(/^ {2}repa-offline +128k +no +none needed \(built in\)$/m);
    expect(list.stdout).not.toContain('test-key');
    const json = await repaJson<{
      models: { id: string; credentials: boolean }[];
      default: string;
    }>(sandbox, ['models']);
    expect(json.json.default).toBe('test/plain');
    expect(json.json.models.map((model) => model.id)).toEqual([
      'test/plain',
      'test/seer',
      'test/thinker',
      'repa-offline',
    ]);
  });

  it('lists the models without credentials too with --all', async () => {
    const all = await repaJson<{ models: { id: string; credentials: boolean }[] }>(sandbox, [
      'models',
      '--all',
    ]);
    expect(all.json.models.length).toBeGreaterThan(2);
    expect(all.json.models.filter((model) => !model.credentials).length).toBeGreaterThan(0);
  });

  it('agrees with repa doctor on which models have credentials', async () => {
    const doctor = await repaJson<{ models: { available: string[] } }>(sandbox, ['doctor']);
    const models = await repaJson<{ models: { id: string; offline?: boolean }[] }>(sandbox, [
      'models',
    ]);
    expect(
      models.json.models
        .filter((model) => !model.offline)
        .map((model) => model.id)
        .sort(),
    ).toEqual([...doctor.json.models.available].sort());
  });
});

describe('repa login', () => {
  it("stores a piped API key through Pi's own prompt, and repa models then shows the connection", async () => {
    const login = await repa(sandbox, ['login', 'anthropic'], { input: 'sk-piped-key\n' });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/^Enter Anthropic API key.*:$/m);
    expect(login.stdout).toMatch(/^Signed in: connection anthropic:auth-file$/m);
    // Not checked with the provider, and it says so.
    expect(login.stdout).toMatch(
      /^The key was stored, not checked with the provider \(a check would be a model call\); the next request checks it, and a wrong key fails it with auth_failed naming this connection\.$/m,
    );
    expect(login.stdout).not.toContain('sk-piped-key');
    const auth = JSON.parse(readFileSync(join(sandbox.agentDir, 'auth.json'), 'utf8'));
    expect(auth.anthropic).toEqual({ type: 'api_key', key: 'sk-piped-key' });
    const list = await repa(sandbox, ['models']);
    expect(list.stdout).toMatch(/^ {2}anthropic\/\S+ +\S+ +(yes|no) +auth-file$/m);
    expect(list.stdout).not.toContain('sk-piped-key');
  });

  it('then agrees with repa doctor and pi --list-models on which models have credentials', async () => {
    const piCli = fileURLToPath(
      new URL(
        '../../../packages/host/node_modules/@earendil-works/pi-coding-agent/dist/cli.js',
        import.meta.url,
      ),
    );
    const pi = await run(process.execPath, [piCli, '--list-models'], {
      env: { ...sandbox.env, PI_CODING_AGENT_DIR: sandbox.agentDir },
      maxBuffer: 16 * 1024 * 1024,
    });
    const fromPi = pi.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .map(([provider, id]) => `${provider}/${id}`)
      .sort();
    expect(fromPi).toContain('test/plain');
    expect(fromPi.some((id) => id.startsWith('anthropic/'))).toBe(true);
    const models = await repaJson<{ models: { id: string; offline?: boolean }[] }>(sandbox, [
      'models',
    ]);
    const ours = models.json.models.filter((model) => !model.offline).map((model) => model.id);
    expect(ours.sort()).toEqual(fromPi);
    const doctor = await repaJson<{ models: { available: string[] } }>(sandbox, ['doctor']);
    expect([...doctor.json.models.available].sort()).toEqual(fromPi);
  });

  it('fails with not_found for a provider Pi does not know', async () => {
    const login = await repa(sandbox, ['login', 'no-such-provider'], { input: '\n' });
    expect(login.code).not.toBe(0);
    expect(login.stderr).toContain('not_found');
  });
});
