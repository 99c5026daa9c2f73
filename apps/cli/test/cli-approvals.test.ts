// Spec R36, R37: `tools.edits` on the built daemon, with a scripted model endpoint.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EndpointReply, OpenAiEndpoint } from '@repa/fixtures';
import type { RepaClient, RunApprovalRequestEvent, RunEvent } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { repa, repaJson, spawnRepa } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { DONE, offered, useScriptedDaemon } from './commands-sandbox.js';

const scripted = useScriptedDaemon();
const { sandbox } = scripted;
let model: OpenAiEndpoint;
let client: RepaClient;

const note = (path: string) => join(sandbox.space, path);
const ASK = { edits: 'ask' } as const;

/** Waits until `find` returns something (polling every 20 ms, for up to 20 s). */
async function until<T>(find: () => T | undefined): Promise<T> {
  for (let waited = 0; waited < 20_000; waited += 20) {
    const found = find();
    if (found !== undefined) return found;
    await sleep(20);
  }
  throw new Error('timed out waiting');
}

/** The `approval-request` events among `events`, waiting until there are `count`. */
async function requests(events: RunEvent[], count = 1): Promise<RunApprovalRequestEvent[]> {
  return until(() => {
    const found = events.filter(
      (event): event is RunApprovalRequestEvent => event.type === 'approval-request',
    );
    return found.length >= count ? found : undefined;
  });
}

/** The text of the tool results the model was sent in the last request. */
const toolResults = () =>
  JSON.stringify(
    ((model.requests.at(-1)?.messages ?? []) as { role: string }[]).filter(
      (message) => message.role === 'tool',
    ),
  );

const write = (path: string, content: string) => ({
  kind: 'tools' as const,
  calls: [{ name: 'write', arguments: { path, content } }],
});

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

beforeAll(() => {
  model = scripted.endpoint();
  client = scripted.client();
});

describe('tools.edits off', () => {
  it('offers no write, edit or apply_patch (the request lists the tools), refuses them by name, and runs bash read-only', async () => {
    for (const pair of ['tools.edits off', 'tools.bash sandboxed']) {
      const set = await repa(sandbox, ['settings', 'set', ...pair.split(' ')]);
      expect(set.code, set.stderr).toBe(0);
    }
    try {
      // A command runs, with the space read-only: it writes nothing, and the model is told why.
      const bash = {
        kind: 'tools' as const,
        calls: [{ name: 'bash', arguments: { command: 'echo ran > notes/cmd.txt' } }],
      };
      expect((await (await submit([bash])).done).status).toBe('succeeded');
      expect(existsSync(note('notes/cmd.txt'))).toBe(false);
      expect(toolResults()).toContain('Read-only file system');
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
      for (const key of ['tools.enabled', 'tools.edits', 'tools.bash']) {
        await repa(sandbox, ['settings', 'reset', key]);
      }
    }
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('six hours');
  });
});

describe('tools.edits ask', () => {
  it('holds a write until approved (nothing on disk), writes it then; a refusal writes nothing and tells the model why', async () => {
    const { follower, events, done } = await submit(
      [write('notes/new.md', '# New\n'), write('notes/other.md', '# Other\n')],
      ASK,
    );
    const { run } = await follower.accepted;
    const [first] = await requests(events);
    expect(first?.toolName).toBe('write');
    expect(first?.targets).toEqual(['notes/new.md']);
    expect(first?.diffs?.[0]?.diff).toContain('+# New');
    await sleep(300);
    expect(existsSync(note('notes/new.md'))).toBe(false);
    const approved = await client.request('run.approve', {
      runId: run.runId,
      approvalId: first?.approvalId ?? '',
      answer: 'approve',
    });
    expect(approved).toMatchObject({ answered: true, approval: { decision: 'approved' } });
    const [, second] = await requests(events, 2);
    expect(readFileSync(note('notes/new.md'), 'utf8')).toBe('# New\n');
    await client.request('run.approve', {
      runId: run.runId,
      approvalId: second?.approvalId ?? '',
      answer: 'refuse',
      reason: 'Keep the notes in one file.',
    });
    const ended = await done;
    expect(ended.status).toBe('succeeded');
    expect(existsSync(note('notes/other.md'))).toBe(false);
    expect(toolResults()).toContain('edit_refused');
    expect(toolResults()).toContain('Keep the notes in one file.');
    expect(ended.approvals?.map((one) => [one.targets, one.decision, one.reason])).toEqual([
      [['notes/new.md'], 'approved', undefined],
      [['notes/other.md'], 'refused', 'Keep the notes in one file.'],
    ]);
    const shown = await repa(sandbox, ['runs', 'show', ended.runId]);
    expect(shown.stdout).toContain('edits      ask: each save and command waited for the learner');
    expect(shown.stdout).toContain(
      'approvals\n  approved: write notes/new.md\n  refused: write notes/other.md (Keep the notes in one file.)\n',
    );
    rmSync(note('notes/new.md'));
  });

  it('"yes to all" approves the rest of the run without asking again, on the record as covered', async () => {
    const { follower, events, done } = await submit(
      [write('notes/all-1.md', '1\n'), write('notes/all-2.md', '2\n')],
      ASK,
    );
    const { run } = await follower.accepted;
    const [asked] = await requests(events);
    await client.request('run.approve', {
      runId: run.runId,
      approvalId: asked?.approvalId ?? '',
      answer: 'approve-run',
    });
    const ended = await done;
    expect(events.filter((event) => event.type === 'approval-request')).toHaveLength(1);
    expect(readFileSync(note('notes/all-2.md'), 'utf8')).toBe('2\n');
    expect(ended.approvals?.map((one) => [one.decision, one.forRun, one.covered])).toEqual([
      ['approved', true, undefined],
      ['approved', undefined, true],
    ]);
    rmSync(note('notes/all-1.md'));
    rmSync(note('notes/all-2.md'));
  });

  it('asks once for a three-file apply_patch: refused, none is written; approved, all are', async () => {
    const patch = {
      kind: 'tools' as const,
      calls: [
        {
          name: 'apply_patch',
          arguments: {
            input: [
              '*** Begin Patch',
              ...['x', 'y', 'z'].flatMap((name) => [`*** Add File: p/${name}.md`, `+${name}`]),
              '*** End Patch',
            ].join('\n'),
          },
        },
      ],
    };
    for (const answer of ['refuse', 'approve'] as const) {
      const { follower, events, done } = await submit([patch], ASK);
      const { run } = await follower.accepted;
      const [asked] = await requests(events);
      expect(asked?.diffs?.map((diff) => diff.target)).toEqual(['p/x.md', 'p/y.md', 'p/z.md']);
      await client.request('run.approve', {
        runId: run.runId,
        approvalId: asked?.approvalId ?? '',
        answer,
      });
      await done;
      expect(events.filter((event) => event.type === 'approval-request')).toHaveLength(1);
      const written = ['x', 'y', 'z'].map((name) => existsSync(note(`p/${name}.md`)));
      expect(written).toEqual(answer === 'approve' ? [true, true, true] : [false, false, false]);
    }
    rmSync(note('p'), { recursive: true });
  });

  it('ends a run cancelled while a save waits with nothing written', async () => {
    const { follower, events, done } = await submit([write('notes/cancel.md', 'x\n')], ASK);
    await requests(events);
    follower.cancel();
    const ended = await done;
    expect(ended.status).toBe('cancelled');
    expect(ended.approvals?.[0]?.decision).toBeUndefined();
    expect(existsSync(note('notes/cancel.md'))).toBe(false);
  });

  it('shows a second client the request; the first answer wins and the other sees it answered', async () => {
    const { follower, events, sessionId, done } = await submit(
      [write('notes/two.md', 'two\n')],
      ASK,
    );
    const { run } = await follower.accepted;
    const other = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
    const seen: RunEvent[] = [];
    other.on('run.event', (params) => {
      if (params.runId === run.runId) seen.push(params.event);
    });
    try {
      await other.request('session.subscribe', { space: sandbox.space, sessionId });
      const [asked] = await requests(events);
      const approvalId = asked?.approvalId ?? '';
      const [mine, theirs] = await Promise.all([
        other.request('run.approve', { runId: run.runId, approvalId, answer: 'refuse' }),
        client.request('run.approve', { runId: run.runId, approvalId, answer: 'approve' }),
      ]);
      expect([mine.answered, theirs.answered]).toEqual([true, false]);
      expect(theirs.approval.decision).toBe('refused');
      await done;
      expect(seen.find((event) => event.type === 'approval-answered')).toMatchObject({
        approvalId,
        decision: 'refused',
      });
      expect(existsSync(note('notes/two.md'))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('fails the save stale_version when the file changes between the diff shown and the approval', async () => {
    const edit = {
      kind: 'tools' as const,
      calls: [
        {
          name: 'edit',
          arguments: { path: 'notes/plan.md', edits: [{ oldText: 'weekly', newText: 'daily' }] },
        },
      ],
    };
    const read = {
      kind: 'tools' as const,
      calls: [{ name: 'read', arguments: { path: 'notes/plan.md' } }],
    };
    const { follower, events, done } = await submit([read, edit], ASK);
    const { run } = await follower.accepted;
    const [asked] = await requests(events);
    expect(asked?.diffs?.[0]?.diff).toContain('+- Read the chapter daily.');
    writeFileSync(note('notes/plan.md'), '# Plan\n\n- Read the chapter monthly.\n');
    await client.request('run.approve', {
      runId: run.runId,
      approvalId: asked?.approvalId ?? '',
      answer: 'approve',
    });
    await done;
    const end = events.find((event) => event.type === 'tool-end' && event.toolName === 'edit');
    expect(end).toMatchObject({ isError: true, error: { code: 'stale_version' } });
    expect(readFileSync(note('notes/plan.md'), 'utf8')).toContain('monthly');
  });

  it('asks for a bash command line before it runs (in its sandbox): refused, it never runs', async () => {
    const set = await repa(sandbox, ['settings', 'set', 'tools.bash', 'sandboxed']);
    expect(set.code, set.stderr).toBe(0);
    try {
      const command = 'echo ran > notes/cmd.txt';
      const bash = { kind: 'tools' as const, calls: [{ name: 'bash', arguments: { command } }] };
      for (const answer of ['refuse', 'approve'] as const) {
        const { follower, events, done } = await submit([bash], ASK);
        const { run } = await follower.accepted;
        const [asked] = await requests(events);
        expect(asked?.command).toBe(command);
        await sleep(200);
        expect(existsSync(note('notes/cmd.txt'))).toBe(false);
        await client.request('run.approve', {
          runId: run.runId,
          approvalId: asked?.approvalId ?? '',
          answer,
        });
        await done;
        expect(existsSync(note('notes/cmd.txt'))).toBe(answer === 'approve');
      }
    } finally {
      await repa(sandbox, ['settings', 'reset', 'tools.bash']);
      rmSync(note('notes/cmd.txt'), { force: true });
    }
  });

  it('repa run off a terminal refuses each save with edit_refused and a fix, and writes nothing', async () => {
    model.replies.splice(0, model.replies.length, write('notes/piped.md', 'x\n'), DONE);
    const result = await repa(sandbox, ['run', '--edits', 'ask', 'Write a note.']);
    expect(result.stdout).toContain('[repa] edits: ask');
    expect(result.stdout).toContain('[approve] write wants to change notes/piped.md');
    expect(result.stdout).toContain('(edit_refused)');
    expect(result.stdout).toContain('Fix: Run it on a terminal to approve changes');
    expect(result.stdout).toContain('[refused] write notes/piped.md');
    expect(existsSync(note('notes/piped.md'))).toBe(false);
    expect(toolResults()).toContain('not run on a terminal');
  });

  it('repa runs follow only shows a waiting save of a run it did not send: the sender answers it', async () => {
    const { events, follower, done } = await submit(
      [write('notes/watched-1.md', '1\n'), write('notes/watched-2.md', '2\n')],
      ASK,
    );
    const { run } = await follower.accepted;
    const [first] = await requests(events);
    const watcher = spawnRepa(sandbox, ['runs', 'follow', run.runId]);
    watcher.child.stdin.end();
    await until(() => (watcher.stdout.includes('following run') ? true : undefined));
    const answer = (approvalId: string | undefined) =>
      client.request('run.approve', {
        runId: run.runId,
        approvalId: approvalId ?? '',
        answer: 'approve',
      });
    await answer(first?.approvalId);
    // The second save is asked while the watcher follows: it shows it, and refuses nothing.
    const second = (await requests(events, 2))[1];
    await until(() => (watcher.stdout.includes('notes/watched-2.md') ? true : undefined));
    await sleep(300);
    const waiting = (await client.request('run.get', { runId: run.runId })).run;
    expect(waiting.approvals?.map((approval) => approval.decision)).toEqual([
      'approved',
      undefined,
    ]);
    await answer(second?.approvalId);
    expect((await done).status).toBe('succeeded');
    expect(readFileSync(note('notes/watched-2.md'), 'utf8')).toBe('2\n');
    const watched = await watcher.exited;
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).not.toContain('edit_refused');
  });

  it('leaves a run interrupted (resumable) and nothing written when the daemon stops while a save waits', async () => {
    const { events, follower, done } = await submit([write('notes/restart.md', 'x\n')], ASK);
    // The follower's connection goes with the daemon; the run is read back from the new one.
    done.catch(() => undefined);
    const { run } = await follower.accepted;
    await requests(events);
    const stop = await repaJson(sandbox, ['daemon', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    const start = await repaJson(sandbox, ['daemon', 'start', '--model', 'test/plain']);
    expect(start.code, start.stderr).toBe(0);
    const again = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
    try {
      const after = (await again.request('run.get', { runId: run.runId })).run;
      expect(after.status).toBe('interrupted');
      expect(after.error?.code).toBe('interrupted');
      expect(after.approvals).toHaveLength(1);
      expect(existsSync(note('notes/restart.md'))).toBe(false);
    } finally {
      await again.close();
    }
  });
});
