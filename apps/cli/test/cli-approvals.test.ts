// Spec R36: `tools.edits` on the built daemon, with a scripted model endpoint.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type EndpointReply, type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import type { RepaClient, RunEvent } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { createSandbox, repa, repaJson } from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sandbox = createSandbox();
let model: OpenAiEndpoint;
let client: RepaClient;
const DONE: EndpointReply = { kind: 'text', text: 'Done.' };

/** The tool names a request offered the model. */
const offered = (request: Record<string, unknown> | undefined) =>
  ((request?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

/** Submits `text` in a new session of the space with `replies` scripted; yields its events. */
async function submit(
  replies: EndpointReply[],
  overrides: { edits?: 'auto' | 'ask' | 'off' } = {},
) {
  model.replies.splice(0, model.replies.length, ...replies, DONE);
  const { session } = await client.request('session.create', { space: sandbox.space });
  const events: RunEvent[] = [];
  const follower = client.followRun(() =>
    client.request('run.submit', {
      space: sandbox.space,
      sessionId: session.sessionId,
      requestId: `r-${Math.random()}`,
      input: { type: 'text', text: 'Change my notes.' },
      ...(overrides.edits ? { overrides } : {}),
    }),
  );
  const done = (async () => {
    for await (const update of follower) {
      if (update.kind === 'event') events.push(update.notification.event);
    }
    const { run } = await follower.accepted;
    return (await client.request('run.get', { runId: run.runId })).run;
  })();
  return { follower, events, done, sessionId: session.sessionId };
}

beforeAll(async () => {
  model = await startOpenAiEndpoint([DONE]);
  model.configure(sandbox.agentDir);
  const start = await repaJson(sandbox, ['daemon', 'start', '--model', 'test/plain']);
  expect(start.code, start.stderr).toBe(0);
  // A space Repa makes is trusted, so its own settings of tools.* apply.
  const first = await repa(sandbox, ['run', 'Hello.']);
  expect(first.code, first.stderr).toBe(0);
  client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await repaJson(sandbox, ['daemon', 'stop']);
  await model.close();
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('tools.edits off', () => {
  it('offers no write, edit or apply_patch (the request lists the tools), and refuses them by name', async () => {
    const set = await repa(sandbox, ['settings', 'set', 'tools.edits', 'off']);
    expect(set.code, set.stderr).toBe(0);
    try {
      const asked = model.requests.length;
      const { done } = await submit([]);
      expect((await done).status).toBe('succeeded');
      const tools = offered(model.requests[asked]);
      expect(tools).toContain('read');
      expect(tools).not.toContain('write');
      expect(tools).not.toContain('edit');
      expect(tools).not.toContain('apply_patch');
      // The same request with `auto` for this run offers them again.
      const again = model.requests.length;
      const { done: auto } = await submit([], { edits: 'auto' });
      const run = await auto;
      expect(run.modelSettings?.edits).toBe('auto');
      expect(run.modelSettingsSources?.edits).toBe('run');
      expect(offered(model.requests[again])).toEqual(
        expect.arrayContaining(['write', 'edit', 'apply_patch']),
      );
      const named = await repa(sandbox, ['settings', 'set', 'tools.enabled', '["read","write"]']);
      expect(named.code, named.stderr).toBe(0);
      const { done: refused } = await submit([]);
      const failed = await refused;
      expect(failed.error).toMatchObject({ code: 'invalid_request' });
      expect(failed.error?.fix).toContain('tools.edits ask');
    } finally {
      await repa(sandbox, ['settings', 'reset', 'tools.enabled']);
      await repa(sandbox, ['settings', 'reset', 'tools.edits']);
    }
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('six hours');
  });
});
