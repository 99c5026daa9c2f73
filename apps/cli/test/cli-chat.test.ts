import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, repa, spawnRepa, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

const sandbox = createSandbox();

afterAll(async () => {
  const stop = await repa(sandbox, ['daemon', 'stop']);
  expect(stop.stdout).toMatch(/^stopped \(pid \d+\)$/m);
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('repa chat', () => {
  describe('over piped stdin', () => {
    it('holds a two-turn conversation in one session and leaves at the end of input', async () => {
      const { code, stdout, stderr } = await repa(sandbox, ['chat'], {
        input:
          'What does notes/a.md say about the tide?\nreplace "weekly" with "daily" in notes/plan.md\n',
      });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('[repa] model: repa-offline (local responder, no language model)');
      expect(stdout).toMatch(/^\[repa\] session (\S+) \(new\)$/m);
      const turns = stdout.split(/^you> /m).slice(1);
      expect(turns).toHaveLength(3); // two requests, then the prompt that met the end of input
      expect(turns[0]).toMatch(/^What does notes\/a\.md say about the tide\?\n/);
      expect(turns[0]).toContain('[tool] read notes/a.md\n');
      expect(turns[0]).toContain('[repa-offline] From notes/a.md: The tide turns every six hours.');
      // After each reply, the status line: the model it used and the context use.
      expect(turns[0]).toMatch(
        /\[succeeded\] run \S+\n\[status\] model repa-offline, thinking off · no context use \(the local responder counts no tokens\)\n$/,
      );
      expect(turns[1]).toContain('[tool] edit notes/plan.md (1 edit)\n');
      expect(turns[1]).toMatch(
        /^\[saved\] notes\/plan\.md {2}[0-9a-f]{8} → [0-9a-f]{8}, \d+ bytes {2}receipt \S+ {2}repa:document\/\S+$/m,
      );
      expect(turns[1]).toContain(
        '[repa-offline] Saved notes/plan.md: replaced "weekly" with "daily".',
      );

      // Both turns went to the same session, which later commands pick up as the most recent.
      const history = await repa(sandbox, ['sessions', 'show', '--json']);
      const items = JSON.parse(history.stdout).items as { kind: string; text: string }[];
      expect(items.filter((item) => item.kind === 'user').map((item) => item.text)).toEqual([
        'What does notes/a.md say about the tide?',
        'replace "weekly" with "daily" in notes/plan.md',
      ]);
    });
  });

  describe('slash commands over a pipe', () => {
    it('refuses an unknown one without sending it and runs the known ones', async () => {
      const { code, stdout, stderr } = await repa(sandbox, ['chat'], {
        input: '/nope\n/model\n/new\n/exit\nnever sent\n',
      });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain(
        'you> /nope\nUnknown command /nope; nothing was sent. /help lists the commands.\n',
      );
      expect(stdout).toContain(
        'you> /model\n[repa] model: repa-offline (local responder, no language model)',
      );
      // The space's most recent session is continued; /new starts one.
      const sessions = [...stdout.matchAll(/^\[repa\] session (\S+) \(new\)$/gm)];
      expect(sessions).toHaveLength(1);
      expect(stdout).not.toContain('never sent\n[');
      const history = await repa(sandbox, ['sessions', 'show', '--json']);
      expect(JSON.parse(history.stdout).items).toEqual([]);
    });

    it("/undo: none in a new session; then a preview of undoing the session's last run, and /undo yes undoes it", async () => {
      const space = join(sandbox.root, 'undo');
      writeFiles(space, { 'notes/plan.md': '# Plan\n\n- Read the chapter weekly.\n' });
      const { code, stdout, stderr } = await repa(sandbox, ['chat', '--space', space], {
        input: '/undo\nreplace "weekly" with "daily" in notes/plan.md\n/undo\n/undo yes\n',
      });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('you> /undo\nThis session has no run to undo.\n');
      const runId = /^\[succeeded\] run (\S+)$/m.exec(stdout)?.[1];
      expect(stdout).toContain(`you> /undo\nRewinding ${runId}:\n  [will] `);
      expect(stdout).toContain('Type /undo yes to rewind these files and the conversation.');
      expect(stdout).toContain(`you> /undo yes\nRewound ${runId}:\n  [done] `);
      expect(readFileSync(join(space, 'notes', 'plan.md'), 'utf8')).toContain('weekly');
    });

    it('answers /steer and /follow-up over a pipe, where no reply runs, without sending anything', async () => {
      const { code, stdout, stderr } = await repa(sandbox, ['chat'], {
        input: '/steer shorter\n/follow-up and more\n/steer\n',
      });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain(
        'you> /steer shorter\nNo reply is running in this session, so /steer has nothing to go into; nothing was sent. (no_active_run)\nFix: Send the text as a request of its own.\n',
      );
      expect(stdout).toMatch(/^you> \/follow-up and more\nNo reply is running .* \/follow-up /m);
      expect(stdout).toContain('you> /steer\n/steer needs the text to send');
      const history = await repa(sandbox, ['sessions', 'show', '--json']);
      expect(JSON.parse(history.stdout).items).toEqual([]);
    });
  });

  describe('when the daemon stopped meanwhile', () => {
    it('starts it again and sends the request', async () => {
      const chat = spawnRepa(sandbox, ['chat', '-c']);
      await chat.waitFor(/you> $/);
      chat.child.stdin.write('What does notes/a.md say about the tide?\n');
      await chat.waitFor(/^\[succeeded\] run \S+\n\[status\] .*\nyou> $/m);
      const stopped = await repa(sandbox, ['daemon', 'stop']);
      expect(stopped.stdout).toMatch(/^stopped \(pid \d+\)$/m);
      const from = chat.stdout.length;
      chat.child.stdin.end('What does notes/a.md say about the tide?\n');
      const { code, stdout } = await chat.exited;
      expect(code).toBe(0);
      expect(stdout.slice(from)).toMatch(
        /^\[repa\] the daemon had stopped; started it again \(pid \d+\)\n[\s\S]*\[succeeded\] run \S+$/m,
      );
    });
  });

  describe('Ctrl-C', () => {
    it('at the prompt leaves the chat with exit code 0', async () => {
      const chat = spawnRepa(sandbox, ['chat']);
      await chat.waitFor(/you> $/);
      chat.child.kill('SIGINT');
      const { code, stderr } = await chat.exited;
      expect(code).toBe(0);
      expect(stderr).not.toContain('Fix:');
    });
  });

  describe('--json', () => {
    it('prints JSON lines and no prompt', async () => {
      const { code, stdout } = await repa(sandbox, ['chat', '--json'], {
        input: 'What does notes/a.md say about the tide?\n',
      });
      expect(code).toBe(0);
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind: string; run?: { status: string } });
      expect(lines[0]).toMatchObject({ kind: 'start', model: 'repa-offline' });
      expect(lines.at(-1)).toMatchObject({ kind: 'finished', run: { status: 'succeeded' } });
    });
  });
});
