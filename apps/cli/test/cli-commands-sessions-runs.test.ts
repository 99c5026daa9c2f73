import type { RunInfo, SessionInfo } from '@repa/protocol';
import { repa, repaJson } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useCommandsSandbox } from './commands-sandbox.js';

const { sandbox, newSpace } = useCommandsSandbox();

describe('repa', () => {
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
        /^settings {3}base=null append="" .*fileChanges="on-demand" citations=true studySummary=true$/m,
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
});
