import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, repa } from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The words a learner reads: refusals in a person's words, fixes true to what was typed, and
// `--json` as one line.
const sandbox = createSandbox();

beforeAll(async () => {
  expect((await repa(sandbox, ['run', 'What turns the tide?'])).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('repa refusals', () => {
  it('refuse a setting value naming the setting and the values it takes, not the request field', async () => {
    const { code, stderr } = await repa(sandbox, ['settings', 'set', 'tools.bash', 'nope']);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'repa: `tools.bash` must be one of `off` or `sandboxed`, not `nope`. (invalid_request)\n' +
        'Fix: Give tools.bash a value it takes: off | sandboxed (repa settings get tools.bash --describe says more).\n',
    );
    const fraction = await repa(sandbox, ['settings', 'set', 'tools.bashTimeoutSeconds', '1.5']);
    expect(fraction.stderr).toContain(
      '`tools.bashTimeoutSeconds` must be a whole number, not a fraction.',
    );
  });

  it('say a missing --space folder is missing, in one error and nothing before it', async () => {
    const missing = join(sandbox.root, 'no-such-course');
    for (const args of [
      ['run', '--space', missing, 'hi'],
      ['chat', '--space', missing],
    ]) {
      const { code, stderr } = await repa(sandbox, args);
      expect(code, args[0]).toBe(1);
      expect(stderr, args[0]).toBe(
        `repa: There is no space folder at ${missing}. (not_found)\nFix: Create the folder first, or pass the path of an existing space.\n`,
      );
    }
  });

  it('say a missing package folder is missing, by the path it resolves to, not that it is not absolute', async () => {
    const { code, stderr } = await repa(sandbox, ['packages', 'add', './no-such-package']);
    expect(code).toBe(1);
    expect(stderr).not.toContain('absolute');
    expect(stderr).toMatch(
      new RegExp(
        `${join(sandbox.space, 'no-such-package').replaceAll('/', '\\/')}.*\\(not_found\\)`,
      ),
    );
  });
});

describe('a thinking level the model cannot do', () => {
  it('is said to be lowered, in the run output and in its record', async () => {
    const lowered = 'thinking off (high was asked for; this model cannot do it, so it was lowered)';
    const run = await repa(sandbox, ['run', '--thinking', 'high', 'What turns the tide?']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`[repa] model: repa-offline (local responder, no language model)`);
    expect(run.stdout).toContain(lowered);
    const shown = await repa(sandbox, ['runs', 'show']);
    expect(shown.stdout).toMatch(/^thinking {3}off \(high was asked for; .* lowered\)/m);
  });
});

describe('--json', () => {
  it('prints one line of JSON for every command that answers once', async () => {
    const commands = [
      ['settings', 'get'],
      ['settings', 'set', 'runs.retentionDays', '90'],
      ['settings', 'set', 'tools.bash', 'nope'],
      ['sessions', 'list'],
      ['sessions', 'show'],
      ['runs', 'list'],
      ['runs', 'show'],
      ['runs', 'diff'],
      ['runs', 'rewind', '--preview'],
      ['context', 'show'],
      ['materials', 'list'],
      ['daemon', 'status'],
      ['models'],
      ['packages', 'list'],
      ['doctor'],
    ];
    for (const args of commands) {
      const { stdout } = await repa(sandbox, [...args, '--json']);
      expect(stdout.split('\n'), args.join(' ')).toHaveLength(2);
      expect(stdout.endsWith('\n'), args.join(' ')).toBe(true);
      expect(() => JSON.parse(stdout), args.join(' ')).not.toThrow();
    }
  });
});
