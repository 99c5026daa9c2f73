// A model added to Pi's models.json while the daemon runs (a local model's usual set-up) is known
// at the next request, without `repa daemon restart`: a real daemon and an endpoint of the test.
import { repa, repaJson, SLOW_MODEL, type SlowModel, startSlowModel } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

let slow: SlowModel | undefined;
// The endpoint runs from the start; Pi's models.json names it only once the daemon runs.
const sandbox = useDaemon({
  prepare: async () => {
    slow = await startSlowModel();
    slow.holding = false;
  },
  cleanup: () => slow?.close(),
});
let pid = 0;

beforeAll(async () => {
  const first = await repa(sandbox, ['run', 'Hello.']); // Pi's configuration read, no models.json.
  expect(first.code, first.stderr).toBe(0);
  pid = (await repaJson<{ pid: number }>(sandbox, ['daemon', 'status'])).json.pid;
});

describe("a model added to Pi's models.json while the daemon runs", () => {
  it('can be set and used at the next request, without a restart', async () => {
    slow?.configure(sandbox.agentDir);
    const set = await repa(sandbox, ['settings', 'set', 'model.id', SLOW_MODEL]);
    expect(set.code, set.stderr).toBe(0);
    const run = await repa(sandbox, ['run', 'Hello again.']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Hello from the test model.');
    // The same daemon: it was not restarted.
    expect((await repaJson<{ pid: number }>(sandbox, ['daemon', 'status'])).json.pid).toBe(pid);
  });
});
