import { existsSync, rmSync } from 'node:fs';
import { createSandbox, repa } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

const sandbox = createSandbox();

afterAll(async () => {
  // The demo stops the daemon it started; this stops one of the sandbox's app dir, if any.
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('repa demo', () => {
  describe('without a terminal', () => {
    it('performs the three runs, shows what happened, stops its daemon and cleans up', async () => {
      const { code, stdout, stderr } = await repa(sandbox, ['demo']);
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('on repa-offline (local responder, no language model)');
      expect(stdout).toMatch(
        /^starting daemon … ready, pid \d+, model: repa-offline \(local responder, no language model\) \(\d+\.\d s\)$/m,
      );
      // Run 1: the prompt sections the model saw, the learning context and an answer from a note.
      expect(stdout).toMatch(/^ {6}\+ base {17}\d+ chars {2}\(built-in base prompt\)$/m);
      expect(stdout).toMatch(/^ {6}- projectInstructions {2}absent/m);
      expect(stdout).toContain('[context] learning context revision 1 (');
      expect(stdout).toContain(
        '[repa-offline] From notes/a.md: The review interval grows after every successful recall.',
      );
      // Run 2: the edit with its receipt, and the file on disk.
      expect(stdout).toMatch(
        /^ {4}\[saved\] notes\/plan\.md {2}[0-9a-f]{8} → [0-9a-f]{8}, \d+ bytes {2}receipt /m,
      );
      expect(stdout).toContain('notes/plan.md on disk now says: - Review the deck every morning.');
      // Run 3: told about the change made between runs, and answering from the new text.
      expect(stdout).toMatch(/^ {4}\[changes\] the model was told: notes\/a\.md modified/m);
      expect(stdout).toContain(
        '[repa-offline] From notes/a.md: The review interval now doubles after every successful recall.',
      );
      expect(stdout.match(/^ {4}\[succeeded\] run /gm)).toHaveLength(3);
      expect(stdout).toMatch(/^stopping daemon … stopped/m);
      const removed = /^Removed (\S+) /m.exec(stdout)?.[1] as string;
      expect(removed.startsWith(sandbox.root)).toBe(true);
      expect(existsSync(removed)).toBe(false);
    });
  });
});
