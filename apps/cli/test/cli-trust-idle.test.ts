import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createSandbox, repa, repaJson, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

const sandbox = createSandbox();

afterAll(async () => {
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('repa trust and untrust', () => {
  it('says why a folder Repa made a space itself is already trusted, and not when the learner trusted it', async () => {
    const plain = join(sandbox.root, 'plain-notes');
    writeFiles(plain, { 'notes/tides.md': '# Tides\nThe tide turns every six hours.\n' });
    const first = await repa(sandbox, ['run', 'Hello.'], { cwd: plain });
    expect(first.code, first.stderr).toBe(0);
    const trust = await repa(sandbox, ['trust', '--yes'], { cwd: plain });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toBe(
      `already trusted: ${plain} (Repa made this folder a space itself: it held nothing that trusting turns on)\n`,
    );

    const shared = join(sandbox.root, 'shared-course');
    writeFiles(shared, { 'AGENTS.md': '# Rules\n', 'notes.md': 'Tides.\n' });
    expect((await repa(sandbox, ['trust', '--yes'], { cwd: shared })).code).toBe(0);
    const again = await repa(sandbox, ['trust', '--yes'], { cwd: shared });
    expect(again.stdout).toBe(`already trusted: ${shared}\n`);
  });

  it('lets project instructions through only for a trusted space, and says how to trust it', async () => {
    const space = join(sandbox.root, 'trusted-space');
    writeFiles(space, { 'AGENTS.md': '# House rules\nAnswer briefly.\n', 'notes.md': 'Tides.\n' });
    const on = await repa(sandbox, ['settings', 'set', 'prompts.projectInstructions', 'true'], {
      cwd: space,
    });
    expect(on.code, on.stderr).toBe(0);

    const withheld = await repa(sandbox, ['run', '--verbose', 'Hello?'], { cwd: space });
    expect(withheld.code, withheld.stderr).toBe(0);
    expect(withheld.stdout).toMatch(/projectInstructions: not trusted/);
    expect(withheld.stdout).toContain(
      '[trust] project instruction files were withheld: this space is not trusted. Trust it with: repa trust',
    );
    const runId = withheld.stdout.match(/^\[succeeded\] run (\S+)$/m)?.[1] ?? '';
    const shown = await repa(sandbox, ['runs', 'show', runId]);
    expect(shown.stdout).toContain(`Trust it with: repa trust --space ${space}`);

    const trust = await repa(sandbox, ['trust', '--space', space, '--yes']);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toMatch(new RegExp(`^trusted: ${space}$`, 'm'));
    expect(readFileSync(join(sandbox.appDir, 'trusted-spaces.json'), 'utf8')).toContain(space);
    const again = await repaJson(sandbox, ['trust'], { cwd: space });
    expect(again.json).toMatchObject({ space, trusted: true, wasTrusted: true });

    const included = await repa(sandbox, ['run', '--verbose', 'Hello again?'], { cwd: space });
    expect(included.code, included.stderr).toBe(0);
    expect(included.stdout).toMatch(/the model saw [^\n]*projectInstructions \(\d+ chars\)/);
    expect(included.stdout).not.toContain('[trust]');

    const untrust = await repa(sandbox, ['untrust'], { cwd: space });
    expect(untrust.stdout).toMatch(new RegExp(`^no longer trusted: ${space}$`, 'm'));
    const after = await repa(sandbox, ['run', '--verbose', 'And now?'], { cwd: space });
    expect(after.stdout).toMatch(/projectInstructions: not trusted/);
    // Without --verbose the [prompt] line is left out, but withheld instructions are still named.
    const quiet = await repa(sandbox, ['run', 'And quietly?'], { cwd: space });
    expect(quiet.stdout).not.toContain('[prompt]');
    expect(quiet.stdout).toContain('[trust] project instruction files were withheld');
  });

  it('says nothing about trust in a space without instruction files', async () => {
    const space = join(sandbox.root, 'no-instructions');
    writeFiles(space, { 'notes.md': 'Tides.\n' });
    await repa(sandbox, ['settings', 'set', 'prompts.projectInstructions', 'true'], { cwd: space });
    const run = await repa(sandbox, ['run', '--verbose', 'Hello?'], { cwd: space });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/projectInstructions: no instruction files/);
    expect(run.stdout).not.toContain('[trust]');
  });
});

describe('daemon idle exit', () => {
  it('exits by itself once idle for daemon.idleMinutes, and the next command starts it again', async () => {
    const status = await repaJson<{ pid: number; running: boolean }>(sandbox, ['daemon', 'status']);
    expect(status.json.running).toBe(true);
    const set = await repa(sandbox, [
      'settings',
      'set',
      'daemon.idleMinutes',
      '0.005',
      '--level',
      'application',
    ]);
    expect(set.code, set.stderr).toBe(0);
    // Wait (no timing asserted: the test's own timeout bounds it) until the process is gone.
    const alive = () => {
      try {
        process.kill(status.json.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive()) await delay(100);
    const log = readFileSync(join(sandbox.appDir, 'run', 'daemon.log'), 'utf8');
    expect(log).toMatch(/idle for daemon\.idleMinutes with no connection and no run: exiting/);
    const stopped = await repaJson<{ running: boolean }>(sandbox, ['daemon', 'status']);
    expect(stopped.json.running).toBe(false);

    const reset = await repa(sandbox, [
      'settings',
      'reset',
      'daemon.idleMinutes',
      '--level',
      'application',
    ]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toMatch(/^repa: started the daemon/m);
  });
});
