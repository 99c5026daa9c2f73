import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, repa, repaJson, SLOW_MODEL, spawnRepa } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useSlowDaemon } from './commands-sandbox.js';

// A daemon on a model served by the test (see slow-model.ts): a run whose request says "wait" stays
// active, waiting on the model, until the test releases it. No timing is involved.
const { sandbox, slow } = useSlowDaemon();
// A 1×1 PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The text of the last message of a model request. */
const lastText = (messages: unknown[] | undefined) => JSON.stringify(messages?.at(-1) ?? null);

describe('repa run inputs on a held model request', () => {
  it('--steer goes into the running run and reaches the model at its next turn boundary', async () => {
    const held = slow().nextHeld();
    const running = spawnRepa(sandbox, ['run', '--json', 'Please wait for steering.']);
    running.child.stdin.end();
    await held;
    const before = slow().requests.length;
    const steer = spawnRepa(sandbox, ['run', '--steer', 'Also greet me.']);
    steer.child.stdin.end();
    await steer.waitFor(/^\[steer\] into run \S+$/m);
    slow().release();

    const steered = await steer.exited;
    expect(steered.code, steered.stderr).toBe(0);
    expect(steered.stdout).toMatch(/^\[succeeded\] run \S+$/m);
    const { code, stdout } = await running.exited;
    expect(code).toBe(0);
    const events = jsonLines(stdout)
      .filter((line) => line.kind === 'event')
      .map((line) => (line.event as { type: string; text?: string }) ?? {});
    expect(events).toContainEqual({
      type: 'steer-delivered',
      text: 'Also greet me.',
      requestRunId: expect.any(String),
    });
    // The model's next request ends with the steering message.
    expect(slow().requests.length).toBe(before + 1);
    expect(lastText(slow().requests.at(-1))).toContain('Also greet me.');
  });

  it('--follow-up goes into the running run and is answered after its current reply', async () => {
    const held = slow().nextHeld();
    const running = spawnRepa(sandbox, ['run', '--json', 'Please wait, then take a follow-up.']);
    running.child.stdin.end();
    await held;
    const before = slow().requests.length;
    const followUp = spawnRepa(sandbox, ['run', '--follow-up', 'And one more thing.']);
    followUp.child.stdin.end();
    await followUp.waitFor(/^\[follow-up\] into run \S+$/m);
    slow().release();

    const sent = await followUp.exited;
    expect(sent.code, sent.stderr).toBe(0);
    const { code, stdout } = await running.exited;
    expect(code).toBe(0);
    const events = jsonLines(stdout)
      .filter((line) => line.kind === 'event')
      .map((line) => line.event as { type: string });
    expect(events).toContainEqual({
      type: 'follow-up-delivered',
      text: 'And one more thing.',
      requestRunId: expect.any(String),
    });
    // The model's next request holds the first reply, then the follow-up.
    expect(slow().requests.length).toBe(before + 1);
    const messages = slow().requests.at(-1) ?? [];
    expect(JSON.stringify(messages.at(-2))).toContain('Hello from the test model.');
    expect(lastText(messages)).toContain('And one more thing.');
  });

  it('--steer with no running run exits 1 with no_active_run and the fix', async () => {
    const { code, stderr } = await repa(sandbox, ['run', '--steer', 'Anyone?']);
    expect(code).toBe(1);
    expect(stderr).toContain('(no_active_run)');
    expect(stderr).toMatch(
      /^Fix: Submit the text as a new run with repa run TEXT \(or repa run --queue TEXT\) instead of steer\.$/m,
    );
    expect(stderr).not.toContain('delivery');
  });

  it('--queue waits behind the running run, shows its position in runs list, then runs', async () => {
    const held = slow().nextHeld();
    const running = spawnRepa(sandbox, ['run', 'Please wait in front.']);
    running.child.stdin.end();
    await held;
    const queued = spawnRepa(sandbox, ['run', '--queue', 'Then this.']);
    queued.child.stdin.end();
    const position = await queued.waitFor(/^\[queued\] run (\S+) waits at position 1$/m);
    const list = await repa(sandbox, ['runs', 'list']);
    expect(list.stdout).toMatch(new RegExp(`^${position[1]}\\s+queued #1\\s`, 'm'));
    expect(
      (await repa(sandbox, ['run', 'Not now.'])).stderr,
      'a plain run is still refused while the queue waits',
    ).toContain('(busy)');
    slow().release();
    expect((await running.exited).code).toBe(0);
    const { code, stdout } = await queued.exited;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Hello from the test model\.\n\[succeeded\] run \S+$/m);
    expect(lastText(slow().requests.at(-1))).toContain('Then this.');
  });

  it('--image sends an image part and --attach the document with its version', async () => {
    writeFileSync(join(sandbox.root, 'dot.png'), Buffer.from(PNG, 'base64'));
    const { code, stdout, stderr } = await repa(sandbox, [
      'run',
      '--image',
      join(sandbox.root, 'dot.png'),
      '--attach',
      'notes/a.md',
      'What is in these?',
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^\[attached\] notes\/a\.md \([0-9a-f]{12}\)$/m);
    const request = lastText(slow().requests.at(-1));
    expect(request).toContain(`data:image/png;base64,${PNG}`);
    expect(request).toContain('The tide turns every six hours.');
    expect(request).toContain('<attached-document path=\\"notes/a.md\\"');
  });

  it('--image refuses a file that is not an image before the run is accepted', async () => {
    writeFileSync(join(sandbox.root, 'fake.png'), 'not a picture');
    const before = slow().requests.length;
    const { code, stderr } = await repa(sandbox, [
      'run',
      '--image',
      join(sandbox.root, 'fake.png'),
      'Look.',
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain('(invalid_request)');
    expect(slow().requests.length).toBe(before);
  });

  it('--image refuses inline images over 5 MiB in all with a usage error naming the limit', async () => {
    const big = join(sandbox.root, 'big.png');
    writeFileSync(big, Buffer.alloc(3.5 * 1024 * 1024));
    const before = slow().requests.length;
    const { code, stderr } = await repa(sandbox, ['run', '--image', `${big},${big}`, 'Look.']);
    expect(code).toBe(2);
    expect(stderr).toContain('5 MiB in all');
    expect(stderr).not.toContain('message_too_large');
    expect(slow().requests.length).toBe(before);
  });

  it('--attach refuses a file outside the space', async () => {
    writeFileSync(join(sandbox.root, 'outside.md'), 'secret\n');
    const { code, stderr } = await repa(sandbox, [
      'run',
      '--attach',
      join(sandbox.root, 'outside.md'),
      'Read it.',
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain('(path_outside_space)');
  });
});

describe('repa runs resume', () => {
  it('continues a run interrupted by kill -9 without sending its request again', async () => {
    const held = slow().nextHeld();
    const running = spawnRepa(sandbox, ['run', '--json', 'Please wait across a crash.']);
    running.child.stdin.end();
    const accepted = await running.waitFor(/"kind":"accepted","run":\{"runId":"([^"]+)"/);
    const runId = accepted[1] as string;
    await held;
    const status = await repaJson<{ pid: number }>(sandbox, ['daemon', 'status']);
    process.kill(status.json.pid, 'SIGKILL');
    await running.exited;
    slow().release(); // Nothing is listening any more.
    const start = await repaJson(sandbox, ['daemon', 'start', '--model', SLOW_MODEL]);
    expect(start.code, start.stderr).toBe(0);
    const shown = await repaJson<{ run: { status: string } }>(sandbox, ['runs', 'show', runId]);
    expect(shown.json.run.status).toBe('interrupted');

    slow().holding = false;
    const before = slow().requests.length;
    try {
      const resumed = await repa(sandbox, ['runs', 'resume', runId]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(
        new RegExp(`^\\[repa\\] run (\\S+) resumes ${runId} \\(attempt 2\\)$`, 'm'),
      );
      expect(resumed.stdout).toMatch(/^Hello from the test model\.\n\[succeeded\] run \S+$/m);
    } finally {
      slow().holding = true;
    }
    // One more model call whose conversation holds the request once, followed by Pi's resume
    // note (the request had entered the history before the crash).
    expect(slow().requests.length).toBe(before + 1);
    const messages = slow().requests.at(-1) ?? [];
    expect(lastText(messages)).toContain('Continue from where the interrupted reply stopped.');
    expect(
      messages.filter((message) => JSON.stringify(message).includes('Please wait across a crash.')),
    ).toHaveLength(1);
  });
});
