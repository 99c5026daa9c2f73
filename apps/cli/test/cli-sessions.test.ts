import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo, SessionInfo } from '@repa/protocol';
import { createSandbox, jsonLines, repa, repaJson, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

const sandbox = createSandbox();

afterAll(async () => {
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

/** A fresh space folder inside the sandbox. */
function newSpace(name: string): string {
  const space = join(sandbox.root, name);
  writeFiles(space, { 'notes/a.md': '# Tides\n\nThe tide turns every six hours.\n' });
  return space;
}

async function sessionsOf(space: string): Promise<SessionInfo[]> {
  const listed = await repaJson<{ sessions: SessionInfo[] }>(sandbox, [
    'sessions',
    'list',
    '--space',
    space,
  ]);
  return listed.json.sessions;
}

async function userTexts(space: string, sessionId: string): Promise<string[]> {
  const shown = await repaJson<{ items: { kind: string; text: string }[] }>(sandbox, [
    'sessions',
    'show',
    sessionId,
    '--space',
    space,
  ]);
  return shown.json.items.filter((item) => item.kind === 'user').map((item) => item.text);
}

describe('repa run reading the request from standard input', () => {
  it('reads it with - and with no argument over a pipe, keeping its lines', async () => {
    const space = newSpace('stdin');
    const dash = await repa(sandbox, ['run', '-'], {
      cwd: space,
      input: 'What does notes/a.md say\nabout the tide?\n',
    });
    expect(dash.code, dash.stderr).toBe(0);
    expect(dash.stdout).toContain('From notes/a.md: The tide turns every six hours.');
    const piped = await repa(sandbox, ['run', '--json'], { cwd: space, input: 'Hello there\n' });
    expect(piped.code, piped.stderr).toBe(0);
    const finished = jsonLines(piped.stdout).at(-1) as { run: RunInfo };
    expect(finished.run.input).toEqual({ type: 'text', text: 'Hello there' });
    const [session] = await sessionsOf(space);
    expect(await userTexts(space, session?.sessionId ?? '')).toEqual([
      'What does notes/a.md say\nabout the tide?',
      'Hello there',
    ]);
  });

  it('refuses empty standard input with exit code 2', async () => {
    const space = newSpace('stdin-empty');
    const empty = await repa(sandbox, ['run', '-'], { cwd: space, input: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^repa: The request text on standard input is empty\./);
  });
});

describe('sessions in chat and run', () => {
  it('chat continues the most recent session; --new starts one', async () => {
    const space = newSpace('continue-chat');
    const first = await repa(sandbox, ['chat'], { cwd: space, input: 'First request\n' });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^\[repa\] session \S+ \(new\)$/m); // The space had none.
    const second = await repa(sandbox, ['chat'], { cwd: space, input: 'Second request\n' });
    expect(second.stdout).not.toContain('(new)');
    expect(await sessionsOf(space)).toHaveLength(1);
    const fresh = await repa(sandbox, ['chat', '--new'], { cwd: space, input: 'Third request\n' });
    expect(fresh.stdout).toMatch(/^\[repa\] session \S+ \(new\)$/m);
    const sessions = await sessionsOf(space);
    expect(sessions).toHaveLength(2);
    const [latest, older] = sessions as [SessionInfo, SessionInfo];
    expect(await userTexts(space, latest.sessionId)).toEqual(['Third request']);
    expect(await userTexts(space, older.sessionId)).toEqual(['First request', 'Second request']);
  });

  it('run continues the most recent session, the one chat left too; --new starts one', async () => {
    const space = newSpace('continue-run');
    const chat = await repa(sandbox, ['chat'], { cwd: space, input: 'First request\n' });
    expect(chat.code, chat.stderr).toBe(0);
    const run = await repa(sandbox, ['run', 'Second request'], { cwd: space });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('(new)');
    const continued = await repa(sandbox, ['run', '-c', 'Third request'], { cwd: space });
    expect(continued.code, continued.stderr).toBe(0);
    const [only] = await sessionsOf(space);
    expect(await userTexts(space, (only as SessionInfo).sessionId)).toEqual([
      'First request',
      'Second request',
      'Third request',
    ]);
    const renewed = await repa(sandbox, ['run', '--new', 'Fourth request'], { cwd: space });
    expect(renewed.stdout).toMatch(/^\[repa\] session \S+ \(new\)$/m);
    expect(await sessionsOf(space)).toHaveLength(2);
  });

  it('accepts a unique id prefix for sessions and runs, and says when a prefix is ambiguous', async () => {
    const space = newSpace('prefix');
    await repa(sandbox, ['run', 'Prefix request'], { cwd: space });
    const [session] = await sessionsOf(space);
    const sessionId = (session as SessionInfo).sessionId;
    expect(await userTexts(space, sessionId.slice(0, 6))).toEqual(['Prefix request']);
    const chat = await repa(sandbox, ['chat', '--session', sessionId.slice(0, 6)], {
      cwd: space,
      input: 'Again\n',
    });
    expect(chat.stdout).toContain(`[repa] session ${sessionId}\n`);

    const runs = await repaJson<{ runs: RunInfo[] }>(sandbox, ['runs', 'list'], { cwd: space });
    const runId = (runs.json.runs.at(-1) as RunInfo).runId;
    const shown = await repa(sandbox, ['runs', 'show', runId.slice(0, 8)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^run {8}${runId}$`, 'm'));
    const bySession = await repaJson<{ runs: RunInfo[] }>(
      sandbox,
      ['runs', 'list', '--session', sessionId.slice(0, 6)],
      { cwd: space },
    );
    expect(bySession.json.runs.map((run) => run.runId)).toContain(runId);

    const none = await repa(sandbox, ['runs', 'show', 'zzzz']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^repa: No run id starts with 'zzzz'\. \(not_found\)/);
    // Session ids are UUIDv7 (time first): two made a moment apart share their first characters.
    await repa(sandbox, ['sessions', 'new'], { cwd: space });
    const [newer, older] = (await sessionsOf(space)).map((listed) => listed.sessionId);
    let common = 0;
    while (newer?.[common] === older?.[common]) common += 1;
    const shared = (newer ?? '').slice(0, common);
    expect(shared.length).toBeGreaterThan(0);
    const ambiguous = await repa(sandbox, ['sessions', 'show', shared, '--space', space]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(new RegExp(`^repa: '${shared}' matches 2 sessions: `));
  });

  it('titles a session after its first request; sessions rename and delete by id prefix, its runs with it', async () => {
    const space = newSpace('titles');
    await repa(sandbox, ['run', 'What does notes/a.md say about the tide?'], { cwd: space });
    const [session] = await sessionsOf(space);
    const sessionId = (session as SessionInfo).sessionId;
    expect(session?.title).toBe('What does notes/a.md say about the tide?');
    const listed = await repa(sandbox, ['sessions', 'list'], { cwd: space });
    expect(listed.stdout).toContain('What does notes/a.md say about the tide?');

    const renamed = await repa(
      sandbox,
      ['sessions', 'rename', sessionId.slice(0, 10), 'Tide', 'notes'],
      {
        cwd: space,
      },
    );
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toBe(`session ${sessionId} is now titled "Tide notes"\n`);
    expect((await sessionsOf(space))[0]?.title).toBe('Tide notes');

    const runsOf = async () =>
      (await repaJson<{ runs: { sessionId: string }[] }>(sandbox, ['runs', 'list'], { cwd: space }))
        .json.runs;
    expect((await runsOf()).map((run) => run.sessionId)).toEqual([sessionId]);
    const deleted = await repa(sandbox, ['sessions', 'delete', sessionId.slice(0, 10)], {
      cwd: space,
    });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`session ${sessionId} deleted, with 1 run\n`);
    expect(await sessionsOf(space)).toEqual([]);
    expect(await runsOf()).toEqual([]);
    const gone = await repa(sandbox, ['sessions', 'show', sessionId], { cwd: space });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/has no session .* \(not_found\)/);
  });

  it('refuses --resume without a terminal, naming the other ways', async () => {
    const resumed = await repa(sandbox, ['chat', '--resume'], { cwd: newSpace('resume-pipe') });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/--resume needs a terminal/);
  });
});

describe('repa sessions export', () => {
  it('writes a readable Markdown file of a session with its tool calls and receipts', async () => {
    const space = newSpace('export');
    const edited = await repa(
      sandbox,
      ['run', 'replace "six hours" with "twelve hours" in notes/a.md'],
      { cwd: space },
    );
    expect(edited.code, edited.stderr).toBe(0);
    const exported = await repa(
      sandbox,
      ['sessions', 'export', '--format', 'md', '-o', 'session.md'],
      { cwd: space },
    );
    expect(exported.code, exported.stderr).toBe(0);
    const [session] = await sessionsOf(space);
    const markdown = readFileSync(join(space, 'session.md'), 'utf8');
    expect(markdown).toMatch(/^# replace "six hours" with "twelve hours" in notes\/a\.md\n/);
    expect(markdown).toContain(`*Run `);
    expect(markdown).toMatch(/^## You · .*\n\nreplace "six hours"/m);
    expect(markdown).toContain('**Tool call `edit`**');
    expect(markdown).toMatch(
      /^- saved `notes\/a\.md` \(repa:document\/.+\): [0-9a-f]{12} → [0-9a-f]{12}, \d+ bytes$/m,
    );
    expect(exported.stdout).toBe(
      `session ${session?.sessionId} exported to ${join(space, 'session.md')}\n`,
    );
  });
});

describe('repa sessions export, for reading', () => {
  it("summarises each tool result in a line and shows each answer's citation checks", async () => {
    const space = newSpace('export-reading');
    writeFileSync(
      join(space, 'notes/long.md'),
      `# Long\n\n${'A line of the long note.\n'.repeat(300)}`,
    );
    const asked = await repa(sandbox, ['run', 'What does notes/a.md say?'], { cwd: space });
    expect(asked.code, asked.stderr).toBe(0);
    const again = await repa(sandbox, ['run', 'What does notes/long.md say?'], { cwd: space });
    expect(again.code, again.stderr).toBe(0);
    const { stdout: markdown } = await repa(sandbox, ['sessions', 'export'], { cwd: space });
    expect(markdown).toContain('**Tool call `read`** `{"path":"notes/a.md"}`');
    expect(markdown).toMatch(
      /^\*\*Tool result `read`\*\*: # Tides {2}\(\d+ lines, \d+ characters\)$/m,
    );
    expect(markdown).toMatch(
      /^\*\*Tool result `read`\*\*: # Long {2}\(30\d lines, \d+ characters\)$/m,
    );
    expect(markdown.match(/A line of the long note\./g)?.length ?? 0).toBeLessThan(10);
    // Each run's checks after its answer, before the next run.
    const first = markdown.indexOf('Citation checks:\n\n- [1] notes/a.md, line 3 ✓');
    expect(first).toBeGreaterThan(markdown.indexOf('From notes/a.md'));
    expect(first).toBeLessThan(markdown.indexOf('What does notes/long.md say?'));
    expect(markdown).toMatch(
      /Citation checks:\n\n- \[1\] notes\/long\.md, line \d+ ✓\n- \[2\] notes\/long\.md, line \d+ ✓\n$/,
    );
  });
});

describe('repa daemon restart', () => {
  it('stops the daemon and starts a new one, with the model it is given and no other', async () => {
    const before = await repaJson<{ pid: number; model: string }>(sandbox, ['daemon', 'status']);
    const restarted = await repaJson<{ restarted: boolean; pid: number; model: string }>(sandbox, [
      'daemon',
      'restart',
      '--model',
      'repa-offline',
    ]);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.json).toMatchObject({ restarted: true, running: true, model: 'repa-offline' });
    expect(restarted.json.pid).not.toBe(before.json.pid);
    // Spec R71: a restart keeps no model it was not given.
    const again = await repaJson(sandbox, ['daemon', 'restart']);
    expect(again.json).toMatchObject({ restarted: true, running: true });
    expect(again.json).not.toHaveProperty('model');
  });
});
