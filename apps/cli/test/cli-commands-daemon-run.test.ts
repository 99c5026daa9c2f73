import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo } from '@repa/protocol';
import { jsonLines, repa, repaJson, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { OFFLINE, useCommandsSandbox } from './commands-sandbox.js';

const { sandbox, newSpace } = useCommandsSandbox();

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
});
