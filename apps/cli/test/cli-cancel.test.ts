import { join } from 'node:path';
import type { RunInfo } from '@repa/protocol';
import { jsonLines, repa, repaJson, SLOW_MODEL, spawnRepa, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useSlowDaemon } from './commands-sandbox.js';

// A daemon on a model served by the test (see slow-model.ts): a run whose request says "wait" stays
// active, waiting on the model, until it is cancelled. No timing is involved.
const { sandbox, slow } = useSlowDaemon();

describe('repa chat', () => {
  describe('Ctrl-C during a run', () => {
    it('cancels the run (run.cancel), not the program, and the conversation goes on', async () => {
      const chat = spawnRepa(sandbox, ['chat']);
      await chat.waitFor(/you> $/);
      expect(chat.stdout).toContain(`[repa] model: ${SLOW_MODEL} — the daemon's --model`);
      const held = slow().nextHeld();
      chat.child.stdin.write('Please wait for me.\n');
      await held; // The run is active: Pi waits on the model.
      const aborted = slow().aborted;
      chat.child.kill('SIGINT');
      const from = chat.stdout.length;
      await chat.waitFor(
        /^\[cancelled\] run \S+: The run was cancelled\. \(cancelled\)\nFix: .*\n\[status\] .*\nyou> $/m,
        from,
      );
      expect(chat.stdout.slice(from)).toMatch(/^\[cancel\] cancelling the run …$/m);
      expect(slow().aborted).toBe(aborted + 1); // Pi aborted the model call.
      expect(chat.child.exitCode).toBeNull();

      const next = chat.stdout.length;
      chat.child.stdin.end('Hello?\n');
      await chat.waitFor(/^Hello from the test model\.\n\[succeeded\] run \S+$/m, next);
      const { code } = await chat.exited;
      expect(code).toBe(0);
    });
  });
});

describe('repa run', () => {
  describe('Ctrl-C', () => {
    it('cancels the run and exits 130', async () => {
      const held = slow().nextHeld();
      const run = spawnRepa(sandbox, ['run', 'Please wait.']);
      run.child.stdin.end();
      await held;
      run.child.kill('SIGINT');
      const { code, stdout, stderr } = await run.exited;
      expect(code).toBe(130);
      expect(stdout).toMatch(/^\[cancel\] cancelling the run …\n\[cancelled\] run \S+\n$/m);
      expect(stderr).not.toContain('Fix:');
      // The session's history marks the reply as cancelled.
      const shown = await repa(sandbox, ['sessions', 'show', '--limit', '1']);
      expect(shown.stdout).toMatch(/^\[assistant \(cancelled\)\] /m);
    });
  });
});

describe('repa runs', () => {
  describe('cancel and retry', () => {
    it('cancels an active run from another process; repa run exits 130; retry runs it again', async () => {
      const held = slow().nextHeld();
      const running = spawnRepa(sandbox, ['run', '--json', 'Please wait, then answer.']);
      running.child.stdin.end();
      const accepted = await running.waitFor(/"kind":"accepted","run":\{"runId":"([^"]+)"/);
      const runId = accepted[1] as string;
      await held;

      const active = await repaJson<{ runs: RunInfo[] }>(sandbox, [
        'runs',
        'list',
        '--status',
        'running',
      ]);
      expect(active.json.runs.map((run) => run.runId)).toEqual([runId]);
      const cancel = await repaJson<{ run: RunInfo }>(sandbox, ['runs', 'cancel', runId]);
      expect(cancel.code).toBe(0);
      expect(cancel.json.run).toMatchObject({
        runId,
        status: 'cancelled',
        error: { code: 'cancelled' },
      });
      const ended = await running.exited;
      expect(ended.code).toBe(130);
      const final = jsonLines(ended.stdout).at(-1) as { kind: string; run: RunInfo };
      expect(final).toMatchObject({ kind: 'finished', run: { runId, status: 'cancelled' } });

      const again = await repa(sandbox, ['runs', 'cancel', runId]);
      expect(again.stdout).toBe(`run ${runId} is cancelled\n`);
      const shown = await repa(sandbox, ['runs', 'show', runId]);
      expect(shown.stdout).toMatch(/^status {5}cancelled$/m);
      expect(shown.stdout).toMatch(/^error {6}The run was cancelled\. \(cancelled\)$/m);

      slow().holding = false; // The model answers this time.
      try {
        const retry = await repa(sandbox, ['runs', 'retry', runId, '--json']);
        expect(retry.code, retry.stderr).toBe(0);
        const lines = jsonLines(retry.stdout);
        const first = lines.find((line) => line.kind === 'accepted') as { run: RunInfo };
        expect(first.run).toMatchObject({ retryOf: runId, attempt: 2 });
        expect((lines.at(-1) as { run: RunInfo }).run).toMatchObject({
          status: 'succeeded',
          retryOf: runId,
          output: 'Hello from the test model.',
        });
        const human = await repa(sandbox, ['runs', 'retry', runId]);
        expect(human.code).toBe(0);
        expect(human.stdout).toMatch(/^\[repa\] run \S+ retries \S+ \(attempt 2\)$/m);
        expect(human.stdout).toMatch(/^Hello from the test model\.\n\[succeeded\] run \S+$/m);
      } finally {
        slow().holding = true;
      }
    });
  });
});

describe('repa doctor and daemon status', () => {
  describe('with a model that has credentials', () => {
    it('lists the model and names it in the status', async () => {
      const doctor = await repa(sandbox, ['doctor']);
      expect(doctor.stdout).toMatch(/^models {4}1 with credentials now, from:$/m);
      expect(doctor.stdout).toMatch(/^ {12}test: models-json, 1 model$/m);
      expect(doctor.stdout).toMatch(
        /^default {3}test\/slow — the daemon's --model, when no level sets model\.id$/m,
      );
      expect(doctor.stdout).toContain('models.json present');
      const status = await repa(sandbox, ['daemon', 'status']);
      expect(status.stdout).toContain(`model     ${SLOW_MODEL} — its --model`);
    });
  });
});

describe('repa context build', () => {
  it('asks the real model once and writes its answer with the source hashed', async () => {
    const space = join(sandbox.root, 'build-space');
    writeFiles(space, { 'intro.md': '# Tides\nThe moon pulls.\n' });
    const built = await repa(sandbox, ['context', 'build', 'intro.md'], { cwd: space });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toBe(
      `… reading 1 source(s)\n… asking ${SLOW_MODEL}\n… writing the learning context\nrevision  1\nbuilt by  ${SLOW_MODEL}\nsources   intro.md\n\nHello from the test model.\n`,
    );
    const shown = await repaJson<{ learningContext: { body: string; sourceStates: unknown[] } }>(
      sandbox,
      ['context', 'show'],
      { cwd: space },
    );
    expect(shown.json.learningContext.body).toBe('Hello from the test model.\n');
    expect(shown.json.learningContext.sourceStates).toMatchObject([
      { path: 'intro.md', state: 'unchanged' },
    ]);
  });

  it('Ctrl-C while the model answers cancels the build (the model call is aborted), exits 130 and writes nothing', async () => {
    const space = join(sandbox.root, 'build-cancel');
    writeFiles(space, { 'notes.md': 'Please wait.\n' });
    const held = slow().nextHeld();
    const build = spawnRepa(sandbox, ['context', 'build', 'notes.md'], { cwd: space });
    build.child.stdin.end();
    await held;
    const aborted = slow().aborted;
    build.child.kill('SIGINT');
    const { code, stderr } = await build.exited;
    expect(code).toBe(130);
    expect(stderr).toContain('nothing was written. (cancelled)');
    const shown = await repaJson(sandbox, ['context', 'show'], { cwd: space });
    expect(shown.json).toMatchObject({ learningContext: null });
    // The daemon aborted its model call before answering the cancelled build.
    expect(slow().aborted).toBe(aborted + 1);
  });
});

describe('repa runs follow', () => {
  it('re-attaches to a live run from another process (by an id prefix) and ends with it', async () => {
    const held = slow().nextHeld();
    const running = spawnRepa(sandbox, ['run', '--json', 'Please wait for the follower.']);
    running.child.stdin.end();
    const accepted = await running.waitFor(/"kind":"accepted","run":\{"runId":"([^"]+)"/);
    const runId = accepted[1] as string;
    await held;

    const follower = spawnRepa(sandbox, ['runs', 'follow', runId.slice(0, 8)]);
    follower.child.stdin.end();
    await follower.waitFor(new RegExp(`^\\[repa\\] following run ${runId}$`, 'm'));
    expect(follower.child.exitCode).toBeNull(); // The run is still active: the follower waits.

    const cancel = await repa(sandbox, ['runs', 'cancel', runId.slice(0, 8)]);
    expect(cancel.stdout).toBe(`run ${runId} is cancelled\n`);
    const followed = await follower.exited;
    expect(followed.code).toBe(130);
    expect(followed.stdout).toMatch(new RegExp(`^\\[cancelled\\] run ${runId}`, 'm'));
    expect((await running.exited).code).toBe(130);

    const again = await repa(sandbox, ['runs', 'follow', runId]);
    expect(again.code).toBe(130);
    expect(again.stdout).toMatch(new RegExp(`^\\[cancelled\\] run ${runId}`, 'm'));
  });
});
