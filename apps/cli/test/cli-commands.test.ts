import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepaError, type RunInfo, type SessionInfo, type SettingItemView } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import {
  cliMain,
  createSandbox,
  jsonLines,
  repa,
  repaJson,
  sandboxArgs,
  writeFiles,
} from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sandbox = createSandbox();
const OFFLINE = 'repa-offline (local responder, no language model)';

/** A fresh space folder inside the sandbox. */
function newSpace(name: string, files: Record<string, string> = {}): string {
  const space = join(sandbox.root, name);
  writeFiles(space, { 'README.md': `# ${name}\n`, ...files });
  return space;
}

/** Writes a space's learning context through the sandbox's daemon (`context.set`). */
async function writeLearningContext(
  space: string,
  input: { body: string; sources: string[] },
): Promise<void> {
  const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
  try {
    await client.connect();
    const { context } = await client.request('context.get', { space });
    await client.request('context.set', {
      space,
      ...input,
      expectedRevision: context?.revision ?? null,
    });
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  const { code, json, stderr } = await repaJson<{ started: boolean; model: string }>(sandbox, [
    'daemon',
    'start',
  ]);
  expect(code, stderr).toBe(0);
  expect(json).toMatchObject({ started: true, running: true });
  expect(json).not.toHaveProperty('model');
});

afterAll(async () => {
  const { code, json } = await repaJson<{ stopped: boolean }>(sandbox, ['daemon', 'stop']);
  expect(code).toBe(0);
  expect(json.stopped).toBe(true);
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('repa', () => {
  describe('daemon', () => {
    it('shows the running daemon with its pid and version; its runs’ models are decided per run', async () => {
      const { code, stdout } = await repa(sandbox, ['daemon', 'status']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^daemon {4}running \(pid \d+\), repa-daemon \d+\.\d+\.\d+$/m);
      expect(stdout).toMatch(/^model {5}decided per run when it is accepted/m);
      const pid = Number(readFileSync(join(sandbox.appDir, 'run', 'daemon.pid'), 'utf8'));
      const { json } = await repaJson(sandbox, ['daemon', 'status']);
      expect(json).toMatchObject({ running: true, pid });
      expect(readFileSync(join(sandbox.appDir, 'run', 'daemon.log'), 'utf8')).toMatch(
        /^repa-daemon ready socket=\S+$/m,
      );
    });

    it('does not start a second daemon', async () => {
      const { code, stdout } = await repa(sandbox, ['daemon', 'start']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^already running/);
    });
  });

  describe('run', () => {
    it('answers a question from a document, naming the space, session and offline model', async () => {
      const space = newSpace('run-question', {
        'notes/a.md': '# Tides\n\nThe tide turns every six hours.\n',
      });
      const { code, stdout, stderr } = await repa(
        sandbox,
        ['run', '--verbose', 'What', 'does', 'notes/a.md', 'say', 'about', 'the', 'tide?'],
        { cwd: space },
      );
      expect(code, stderr).toBe(0);
      expect(stdout).toContain(`[repa] space ${space}`);
      expect(stdout).toMatch(/^\[repa\] session \S+ \(new\)$/m);
      expect(stdout).toContain(`[repa] model: ${OFFLINE}`);
      expect(stdout).toMatch(/^\[prompt\] the model saw base \(\d+ chars\)/m);
      expect(stdout).toContain('[tool] read notes/a.md\n');
      expect(stdout).toContain(
        '[repa-offline] From notes/a.md: The tide turns every six hours. [notes/a.md:3 "The tide turns every six hours."]\n[1] notes/a.md, line 3 ✓\n',
      );
      expect(stdout).toMatch(/^\[succeeded\] run \S+$/m);
    });

    it('answers a question about the notes from the right file without being told its name', async () => {
      const space = newSpace('run-search', {
        'notes/tides.md': '# Tides\n\nTides are caused by the moon.\n',
        'notes/birds.md': '# Birds\n\nGulls nest on cliffs.\n',
        'journal.md': 'A day at the beach.\n',
      });
      const { code, stdout, stderr } = await repa(
        sandbox,
        ['run', '--space', space, 'what do my notes say about tides?'],
        { cwd: sandbox.root },
      );
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(/^\[tool\] grep /m);
      expect(stdout).toContain('[tool] read notes/tides.md\n');
      expect(stdout).toContain(
        '[repa-offline] From notes/tides.md: Tides are caused by the moon. [notes/tides.md:3 "Tides are caused by the moon."] (I searched the space and used notes/tides.md.)',
      );
    });

    it('streams JSON lines and saves an edit with its receipt', async () => {
      const space = newSpace('run-edit', { 'plan.md': 'Read weekly.\n' });
      const { code, stdout } = await repa(
        sandbox,
        ['run', '--space', space, '--json', 'replace "weekly" with "daily" in plan.md'],
        { cwd: sandbox.root },
      );
      expect(code).toBe(0);
      const lines = jsonLines(stdout);
      expect(lines[0]).toMatchObject({
        kind: 'start',
        space,
        model: 'repa-offline',
        modelSource: 'no-credentials',
        thinkingLevel: 'off',
      });
      expect(lines[0]?.modelDescription).toBe(
        `${OFFLINE} — no model has credentials, thinking off`,
      );
      expect(lines[1]).toMatchObject({ kind: 'accepted', resubmitted: false });
      const events = lines.filter((line) => line.kind === 'event');
      expect(events.map((line) => line.seq)).toEqual(
        [...events.map((line) => line.seq as number)].sort((a, b) => a - b),
      );
      const saved = events.find(
        (line) => (line.event as { type: string; receipts?: unknown[] }).receipts !== undefined,
      );
      expect(saved?.event).toMatchObject({
        type: 'tool-end',
        toolName: 'edit',
        isError: false,
        receipts: [{ target: 'plan.md', bytes: 12 }],
      });
      const finished = lines.at(-1) as { kind: string; run: RunInfo };
      expect(finished.kind).toBe('finished');
      expect(finished.run.status).toBe('succeeded');
      expect(finished.run.output).toContain('Saved plan.md');
      expect(readFileSync(join(space, 'plan.md'), 'utf8')).toBe('Read daily.\n');
    });

    it('returns the original run for a request id it already accepted', async () => {
      const space = newSpace('run-idempotent', { 'a.md': 'Owls hunt at night.\n' });
      const first = await repa(sandbox, ['run', '--request-id', 'req-1', 'What is in a.md?'], {
        cwd: space,
      });
      expect(first.code).toBe(0);
      const again = await repa(sandbox, ['run', '--request-id', 'req-1', 'What is in a.md?'], {
        cwd: space,
      });
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        /\[run\] request req-1 was already accepted as run \S+ \(succeeded\)/,
      );
      expect(again.stdout).toContain('[repa-offline] From a.md: Owls hunt at night.');
      const runIdOf = (stdout: string) => /\[succeeded\] run (\S+)/.exec(stdout)?.[1];
      expect(runIdOf(again.stdout)).toBe(runIdOf(first.stdout));
    });

    it('exits 1 with the error on stderr when the run fails', async () => {
      const space = newSpace('run-fails');
      writeFiles(space, { '.repa/learning-context.json': '{ not json' });
      const { code, stdout, stderr } = await repa(sandbox, ['run', 'hello'], { cwd: space });
      expect(code).toBe(1);
      expect(stdout).toMatch(/^\[failed\] run \S+$/m);
      expect(stderr).toMatch(
        /^repa: The learning context file .* is not valid JSON .*\(context_unavailable\)\nFix: Repair or remove /m,
      );
    });

    it('exits 1 with not_found for a session the space does not have', async () => {
      const space = newSpace('run-no-session');
      const { code, stderr } = await repa(sandbox, ['run', '--session', 'nope', 'hello'], {
        cwd: space,
      });
      expect(code).toBe(1);
      expect(stderr).toMatch(/^repa: Space .* has no session nope\. \(not_found\)\nFix: /);
    });
  });

  describe('sessions', () => {
    it('lists, creates and shows sessions; run uses the most recent one', async () => {
      const space = newSpace('sessions', { 'a.md': 'Bees dance to point at flowers.\n' });
      const empty = await repaJson<{ sessions: SessionInfo[] }>(sandbox, ['sessions', 'list'], {
        cwd: space,
      });
      expect(empty.json.sessions).toEqual([]);
      expect((await repa(sandbox, ['sessions', 'list'], { cwd: space })).stdout).toBe(
        `No sessions in ${space}.\n`,
      );
      const created = await repaJson<{ session: SessionInfo }>(
        sandbox,
        ['sessions', 'new', '--title', 'Bees'],
        { cwd: space },
      );
      const sessionId = created.json.session.sessionId;
      await repa(sandbox, ['run', 'What does a.md say about bees?'], { cwd: space });
      const listed = await repa(sandbox, ['sessions', 'list'], { cwd: space });
      expect(listed.stdout).toMatch(/^SESSION +CREATED +UPDATED +TITLE\n/);
      expect(listed.stdout).toContain(sessionId);
      expect(listed.stdout).toMatch(/Bees\n$/);

      const shown = await repa(sandbox, ['sessions', 'show'], { cwd: space });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`session ${sessionId} in ${space}`);
      expect(shown.stdout).toMatch(/\[user\] .*\nWhat does a\.md say about bees\?/);
      // A tool result takes one line: its first line and size (--full shows it whole).
      expect(shown.stdout).toMatch(
        /^\[tool-result read\] \S+ {2}.*Bees dance.* \(\d+ lines?, \d+ characters\)$/m,
      );
      const full = await repa(sandbox, ['sessions', 'show', '--full'], { cwd: space });
      expect(full.stdout).toMatch(/\[tool-result read\] \S+\n.*Bees dance/);
      expect(shown.stdout).toMatch(/\[assistant\] .*\n\[repa-offline\] From a\.md: Bees dance/);
      const json = await repaJson<{ sessionId: string; items: { kind: string }[] }>(
        sandbox,
        ['sessions', 'show', sessionId, '--space', space],
        { cwd: sandbox.root },
      );
      expect(json.json.sessionId).toBe(sessionId);
      expect(json.json.items.map((item) => item.kind)).toEqual([
        'user',
        'assistant',
        'tool-result',
        'assistant',
      ]);
    });

    it('exits 1 with not_found when the space has no session or not that one', async () => {
      const space = newSpace('sessions-none');
      const none = await repa(sandbox, ['sessions', 'show'], { cwd: space });
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/has no sessions\. \(not_found\)/);
      const unknown = await repa(sandbox, ['sessions', 'show', 'nope'], { cwd: space });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/\(not_found\)\nFix: /);
    });
  });

  describe('runs', () => {
    it('lists and shows runs with their settings, prompt sections and output', async () => {
      const space = newSpace('runs', { 'a.md': 'Salmon swim upstream.\n' });
      await repa(sandbox, ['run', 'What does a.md say?'], { cwd: space });
      const list = await repaJson<{ runs: RunInfo[] }>(sandbox, ['runs', 'list'], { cwd: space });
      expect(list.json.runs).toHaveLength(1);
      const run = list.json.runs[0] as RunInfo;
      expect(run).toMatchObject({ status: 'succeeded', space });
      const table = await repa(sandbox, ['runs', 'list', '--status', 'succeeded'], { cwd: space });
      expect(table.stdout).toMatch(/^RUN +STATUS +SESSION +ACCEPTED +REQUEST\n/);
      expect(table.stdout).toContain(`${run.runId}  succeeded`);
      const none = await repa(sandbox, ['runs', 'list', '--status', 'failed'], { cwd: space });
      expect(none.stdout).toBe('No runs.\n');
      const all = await repaJson<{ runs: RunInfo[] }>(sandbox, ['runs', 'list', '--all']);
      expect(all.json.runs.length).toBeGreaterThan(1);

      const shown = await repa(sandbox, ['runs', 'show', run.runId]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`run        ${run.runId}`);
      expect(shown.stdout).toContain('status     succeeded');
      expect(shown.stdout).toMatch(
        /^settings {3}base=null append="" .*fileChanges="on-demand" citations=true$/m,
      );
      expect(shown.stdout).toMatch(/^prompt {5}the model saw base/m);
      expect(shown.stdout).toContain('  [repa-offline] From a.md: Salmon swim upstream.');
      expect(shown.stdout).toContain('\ncitations\n  [1] a.md, line 1 ✓\n');
      const json = await repaJson<{ run: RunInfo }>(sandbox, ['runs', 'show', run.runId]);
      expect(json.json.run.promptSections?.map((section) => section.name)).toContain('tools');
    });

    it('exits 1 with not_found for an unknown run', async () => {
      const { code, stdout, stderr } = await repa(sandbox, ['runs', 'show', 'nope']);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^repa: .*nope.* \(not_found\)\nFix: .+\n$/);
    });
  });

  describe('settings', () => {
    it('shows every setting with value, source and revisions, as a table and as JSON', async () => {
      const space = newSpace('settings-get');
      const { code, stdout } = await repa(sandbox, ['settings', 'get'], { cwd: space });
      expect(code).toBe(0);
      expect(stdout).toMatch(/^KEY +VALUE +SOURCE +REVISIONS\n/);
      expect(stdout).toMatch(
        /^prompts\.fileChanges +"on-demand" +default +application \d+, space 0$/m,
      );
      expect(stdout).toMatch(/^prompts\.base +null +default /m);
      const json = await repaJson<{ items: SettingItemView[]; space: string }>(
        sandbox,
        ['settings'],
        { cwd: space },
      );
      expect(json.json.space).toBe(space);
      expect(json.json.items.map((item) => item.key)).toEqual([
        'prompts.base',
        'prompts.append',
        'prompts.projectInstructions',
        'prompts.skillCatalog',
        'prompts.environment',
        'prompts.learningContext',
        'prompts.fileChanges',
        'prompts.citations',
        'model.id',
        'model.thinkingLevel',
        'tools.enabled',
        'tools.bash',
        'tools.bashTimeoutSeconds',
        'tools.edits',
        'daemon.idleMinutes',
        'compaction.instructions',
        'runs.retentionDays',
        'history.maxMegabytes',
        'history.maxDays',
      ]);
      const one = await repaJson<{ items: SettingItemView[] }>(sandbox, [
        'settings',
        'get',
        'prompts.append',
        '--level',
        'application',
      ]);
      expect(one.json.items).toHaveLength(1);
      expect(one.json.items[0]?.revisions.space).toBeUndefined();
      const unknown = await repa(sandbox, ['settings', 'get', 'prompts.colour'], { cwd: space });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/There is no setting 'prompts.colour'\. \(not_found\)/);
    });

    it('describes one setting asked for by KEY: values, default, rules and what it does', async () => {
      const space = newSpace('settings-describe');
      const bash = await repa(sandbox, ['settings', 'get', 'tools.bash'], { cwd: space });
      expect(bash.code).toBe(0);
      expect(bash.stdout).toMatch(/^tools\.bash +"off" +default +application \d+, space 0\n\n/m);
      expect(bash.stdout).toContain('\nvalues   off | sandboxed\ndefault  "off"\ntrust    ');
      expect(bash.stdout).toMatch(
        /^Whether the model may run shell commands with the `bash` tool/m,
      );
      const idle = await repa(sandbox, [
        'settings',
        'get',
        'daemon.idleMinutes',
        '--level',
        'application',
      ]);
      expect(idle.stdout).toContain(
        "\nvalues   0–10080\ndefault  30\nlevel    only the application level's value is read\n",
      );
      const all = await repa(sandbox, ['settings', 'get'], { cwd: space });
      expect(all.stdout).not.toContain('values   ');
    });

    it('sets values parsed as JSON or taken as strings, per level, and resets them', async () => {
      const space = newSpace('settings-set');
      const set = await repaJson<{ item: SettingItemView; level: string }>(
        sandbox,
        ['settings', 'set', 'prompts.fileChanges', 'notice'],
        { cwd: space },
      );
      expect(set.code).toBe(0);
      expect(set.json.level).toBe('space');
      expect(set.json.item).toMatchObject({ value: 'notice', source: 'space' });
      expect(set.json.item.overrides.space).toEqual({ value: 'notice', revision: 1 });

      const boolean = await repa(
        sandbox,
        ['settings', 'set', 'prompts.environment', 'false', '--level', 'session'],
        { cwd: space },
      );
      expect(boolean.code).toBe(0);
      expect(boolean.stdout).toMatch(
        /^prompts\.environment +false +session +application \d+, space 0, session 1$/m,
      );
      const quoted = await repaJson<{ item: SettingItemView }>(
        sandbox,
        ['settings', 'set', 'prompts.append', '"true"', '--level', 'session'],
        { cwd: space },
      );
      expect(quoted.json.item.value).toBe('true');
      const text = await repaJson<{ item: SettingItemView }>(
        sandbox,
        ['settings', 'set', 'prompts.append', 'Answer in French.', '--level', 'session'],
        { cwd: space },
      );
      expect(text.json.item.value).toBe('Answer in French.');

      const view = await repaJson<{ items: SettingItemView[] }>(sandbox, ['settings', 'get'], {
        cwd: space,
      });
      const byKey = Object.fromEntries(view.json.items.map((item) => [item.key, item]));
      expect(byKey['prompts.environment']).toMatchObject({ value: false, source: 'session' });
      expect(byKey['prompts.fileChanges']).toMatchObject({ value: 'notice', source: 'space' });

      const reset = await repaJson<{ item: SettingItemView }>(
        sandbox,
        ['settings', 'reset', 'prompts.environment', '--level', 'session'],
        { cwd: space },
      );
      expect(reset.json.item).toMatchObject({ value: true, source: 'default' });
      const again = await repa(
        sandbox,
        ['settings', 'reset', 'prompts.environment', '--level', 'session'],
        { cwd: space },
      );
      expect(again.code).toBe(0);
      expect(again.stderr).toContain('prompts.environment has no value at the session level');
      const stale = await repa(
        sandbox,
        ['settings', 'set', 'prompts.append', 'x', '--level', 'space', '--expected-revision', '7'],
        { cwd: space },
      );
      expect(stale.code).toBe(1);
      expect(stale.stderr).toMatch(/\(stale_version\)\nFix: /);
      const invalid = await repa(sandbox, ['settings', 'set', 'prompts.fileChanges', 'loud'], {
        cwd: space,
      });
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/\(invalid_request\)\nFix: /);
    });
  });

  describe('context show', () => {
    it('says none, then shows the learning context the next run would see', async () => {
      const space = newSpace('context');
      const none = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(none.code).toBe(0);
      expect(none.stdout).toContain('context   none');
      expect((await repaJson(sandbox, ['context', 'show'], { cwd: space })).json).toMatchObject({
        space,
        learningContext: null,
        provided: true,
      });

      await writeLearningContext(space, {
        body: 'Studying tides.\nFocus: moon.',
        sources: ['a.md'],
      });
      await writeLearningContext(space, {
        body: 'Studying tides and moons.',
        sources: ['a.md', 'b.md'],
      });
      const shown = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(shown.stdout).toBe(
        `space     ${space}\nrevision  2\nsources   a.md, b.md\nprovided  yes (prompts.learningContext = true, from default)\n\nStudying tides and moons.\n`,
      );
      await repa(sandbox, ['settings', 'set', 'prompts.learningContext', 'false'], { cwd: space });
      const json = await repaJson(sandbox, ['context', 'show', '--space', space]);
      expect(json.json).toMatchObject({
        provided: false,
        learningContext: {
          revision: '2',
          sources: ['a.md', 'b.md'],
          body: 'Studying tides and moons.',
        },
      });
    });

    it('names a source edited or removed since the context was written, and says to rebuild', async () => {
      const space = newSpace('context-stale', { 'intro.md': '# Tides\n', 'notes.md': 'Moon.\n' });
      const set = await repa(
        sandbox,
        ['context', 'set', '--body', 'Tides.', '--source', 'intro.md', '--source', 'notes.md'],
        { cwd: space },
      );
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toBe('revision  1\n');
      const fresh = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(fresh.stdout).not.toContain('since this context was built');
      writeFileSync(join(space, 'intro.md'), '# Tides and moons\n');
      rmSync(join(space, 'notes.md'));
      const stale = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(stale.stdout).toContain(
        'intro.md changed since this context was built (just now) — rebuild with `repa context build`',
      );
      expect(stale.stdout).toContain('notes.md vanished since this context was built');
      const json = await repaJson<{ learningContext: { sourceStates: { state: string }[] } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(json.json.learningContext.sourceStates.map((source) => source.state)).toEqual([
        'changed',
        'vanished',
      ]);
    });

    it('context set takes the body from --file or --body, refuses a source outside the space', async () => {
      const space = newSpace('context-set');
      writeFileSync(join(sandbox.root, 'body.txt'), 'From a file.\n');
      const fromFile = await repaJson(sandbox, ['context', 'set', '--file', '../body.txt'], {
        cwd: space,
      });
      expect(fromFile.json).toMatchObject({ space, revision: '1' });
      const shown = await repaJson<{ learningContext: { body: string } }>(sandbox, [
        'context',
        'show',
        '--space',
        space,
      ]);
      expect(shown.json.learningContext.body).toBe('From a file.\n');
      const outside = await repa(
        sandbox,
        ['context', 'set', '--body', 'x', '--source', '../body.txt'],
        { cwd: space },
      );
      expect(outside.code).toBe(1);
      expect(outside.stderr).toContain('(path_outside_space)');
      const neither = await repa(sandbox, ['context', 'set'], { cwd: space });
      expect(neither.code).toBe(2);
      writeFileSync(join(sandbox.root, 'big.txt'), 'x'.repeat(300_000));
      const big = await repa(sandbox, ['context', 'set', '--file', '../big.txt'], { cwd: space });
      expect(big.code).toBe(1);
      expect(big.stderr).toMatch(/the limit is 262144 bytes.*\(invalid_request\)/);
    });

    it('context set refuses a damaged file unless --force, which keeps its bytes beside it', async () => {
      const space = newSpace('context-force');
      writeFiles(space, { '.repa/learning-context.json': '{ damaged' });
      const refused = await repa(sandbox, ['context', 'set', '--body', 'New.'], { cwd: space });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('(context_unavailable)');
      expect(readFileSync(join(space, '.repa', 'learning-context.json'), 'utf8')).toBe('{ damaged');
      const forced = await repa(sandbox, ['context', 'set', '--body', 'New.', '--force'], {
        cwd: space,
      });
      expect(forced.code, forced.stderr).toBe(0);
      const kept = /kept the damaged file as (.*)\n/.exec(forced.stdout)?.[1] ?? '';
      expect(readFileSync(kept, 'utf8')).toBe('{ damaged');
      expect(forced.stdout).toContain('revision  1\n');
    });

    it('context clear writes an empty body as a new revision', async () => {
      const space = newSpace('context-clear');
      await writeLearningContext(space, { body: 'Something.', sources: [] });
      const cleared = await repa(sandbox, ['context', 'clear'], { cwd: space });
      expect(cleared.code, cleared.stderr).toBe(0);
      expect(cleared.stdout).toBe('revision  2\n');
      const shown = await repaJson<{ learningContext: { body: string; sources: string[] } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(shown.json.learningContext).toMatchObject({ body: '', sources: [] });
    });

    it('context edit saves what a scripted $EDITOR wrote, keeps the sources, and saves nothing when unchanged', async () => {
      const space = newSpace('context-edit', { 'a.md': 'A\n' });
      await writeLearningContext(space, { body: 'Old body.', sources: ['a.md'] });
      const editor = join(sandbox.root, 'editor.mjs');
      writeFileSync(
        editor,
        "import { readFileSync, writeFileSync } from 'node:fs';\nconst file = process.argv[2];\nwriteFileSync(file, readFileSync(file, 'utf8').replace('Old', 'New'));\n",
      );
      const env = { VISUAL: '', EDITOR: `"${process.execPath}" "${editor}"` };
      const edited = await repa(sandbox, ['context', 'edit'], { cwd: space, env });
      expect(edited.code, edited.stderr).toBe(0);
      expect(edited.stdout).toBe('revision  2\n');
      const shown = await repaJson<{ learningContext: { body: string; sources: string[] } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(shown.json.learningContext).toMatchObject({ body: 'New body.', sources: ['a.md'] });
      const again = await repa(sandbox, ['context', 'edit'], { cwd: space, env });
      expect(again.stdout).toBe('unchanged; nothing saved\n');
    });

    it('context edit refuses to save when the context changed while the editor was open', async () => {
      const space = newSpace('context-edit-stale');
      await writeLearningContext(space, { body: 'Old body.', sources: [] });
      const editor = join(sandbox.root, 'editor-racing.mjs');
      writeFileSync(
        editor,
        [
          "import { execFileSync } from 'node:child_process';",
          "import { writeFileSync } from 'node:fs';",
          `execFileSync(process.execPath, ${JSON.stringify([cliMain, ...sandboxArgs(sandbox)])}.concat(['context', 'set', '--body', 'Meanwhile.', '--space', ${JSON.stringify(space)}]));`,
          "writeFileSync(process.argv[2], 'Mine.');",
        ].join('\n'),
      );
      const env = { VISUAL: `"${process.execPath}" "${editor}"` };
      const edited = await repa(sandbox, ['context', 'edit'], { cwd: space, env });
      expect(edited.code).toBe(1);
      expect(edited.stderr).toMatch(
        /changed while you edited it; your text is kept in (.*)\. \(stale_version\)/,
      );
      const kept = /your text is kept in (.*?)\. \(stale_version\)/.exec(edited.stderr)?.[1] ?? '';
      expect(readFileSync(kept, 'utf8')).toBe('Mine.');
      const shown = await repaJson<{ learningContext: { body: string } }>(
        sandbox,
        ['context', 'show'],
        { cwd: space },
      );
      expect(shown.json.learningContext.body).toBe('Meanwhile.');
    });

    it('the daemon answers two concurrent context.set calls from two clients: one wins, one is stale_version', async () => {
      const space = newSpace('context-race');
      const clients = [0, 1].map(() =>
        createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath }),
      );
      try {
        await Promise.all(clients.map((client) => client.connect()));
        const results = await Promise.allSettled(
          clients.map((client, index) =>
            client.request('context.set', {
              space,
              body: `Editor ${index}.`,
              sources: [],
              expectedRevision: null,
            }),
          ),
        );
        expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
        const rejected = results.find((result) => result.status === 'rejected');
        expect(RepaError.isInstance(rejected?.reason) && rejected.reason.code).toBe(
          'stale_version',
        );
        const [first] = clients;
        const { context } = (await first?.request('context.get', { space })) ?? {};
        expect(context?.revision).toBe('1');
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
    });

    it('context build on repa-offline writes a labelled extractive context with progress; an edited source then shows as changed', async () => {
      const space = newSpace('context-build', {
        'intro.md': '# Tides\n\nThe moon pulls the sea. Twice a day.\n',
      });
      const built = await repa(
        sandbox,
        ['context', 'build', 'intro.md', '--instructions', 'moon'],
        {
          cwd: space,
        },
      );
      expect(built.code, built.stderr).toBe(0);
      expect(built.stdout).toBe(
        '… reading 1 source(s)\n… extracting headings and first sentences\n… writing the learning context\n' +
          'revision  1\nbuilt by  repa-offline (extractive: headings and first sentences, no language model)\n',
      );
      const shown = await repaJson<{
        learningContext: { body: string; sources: string[]; sourceStates: { state: string }[] };
      }>(sandbox, ['context', 'show'], { cwd: space });
      expect(shown.json.learningContext.body).toContain(
        'Extractive context built offline by repa-offline',
      );
      expect(shown.json.learningContext.body).toContain('- Tides\n  - The moon pulls the sea.');
      expect(shown.json.learningContext.sourceStates).toEqual([
        { path: 'intro.md', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), state: 'unchanged' },
      ]);
      writeFileSync(join(space, 'intro.md'), '# Tides\n\nThe sun pulls too.\n');
      const stale = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(stale.stdout).toContain(
        'intro.md changed since this context was built (just now) — rebuild with `repa context build`',
      );
      const json = await repaJson(sandbox, ['context', 'build', 'intro.md'], { cwd: space });
      expect(json.json).toMatchObject({
        revision: '2',
        model: 'repa-offline',
        extractive: true,
        cut: [],
      });
      const missing = await repa(sandbox, ['context', 'build', 'nope.md'], { cwd: space });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('(not_found)');
    });

    it('fails with context_unavailable when the file is damaged, like the next run would', async () => {
      const space = newSpace('context-damaged');
      writeFileSync(join(space, 'README.md'), 'x');
      writeFiles(space, { '.repa/learning-context.json': '[]' });
      const { code, stderr } = await repa(sandbox, ['context', 'show'], { cwd: space });
      expect(code).toBe(1);
      expect(stderr).toMatch(/has the wrong shape .* \(context_unavailable\)\nFix: /);
      expect(existsSync(join(space, '.repa', 'learning-context.json'))).toBe(true);
    });
  });
});
