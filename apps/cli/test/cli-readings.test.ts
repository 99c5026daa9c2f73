// Readings on the offline responder through a real daemon: an EPUB's chapter cited and checked,
// an attached file read and cited, and space paths typed from a subfolder of the space.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEpub } from '@repa/fixtures';
import { repa, repaJson } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useCommandsSandbox } from './commands-sandbox.js';

const { sandbox, newSpace } = useCommandsSandbox();

/** `newSpace` made a Repa space (a session in it), so a command run in a subfolder finds it. */
async function spaceWith(name: string, files: Record<string, string>): Promise<string> {
  const space = newSpace(name, files);
  const made = await repa(sandbox, ['sessions', 'new'], { cwd: space });
  expect(made.code, made.stderr).toBe(0);
  return space;
}

const OCEANS = makeEpub('Oceans', [
  { title: 'Waves', paragraphs: ['Waves carry energy across the ocean.'] },
  { title: 'Tides', paragraphs: ['The tide turns every six hours because of the moon.'] },
]);

describe('readings on the offline responder', () => {
  it("cites an EPUB's chapter, checked and named as a chapter", async () => {
    const space = newSpace('epub');
    writeFileSync(join(space, 'oceans.epub'), OCEANS);
    const run = await repa(sandbox, ['run', 'What does oceans.epub say about the tide?'], {
      cwd: space,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'From oceans.epub (chapter 2): The tide turns every six hours because of the moon. [oceans.epub#p2:3 "The tide turns every six hours because of"]',
    );
    expect(run.stdout).toMatch(/^\[1\] oceans\.epub ch\. 2, line 3 ✓$/m);
  });

  it('reads and cites an attached file, typed from a subfolder of the space', async () => {
    const space = await spaceWith('attached', {
      'week1/notes.md': '# Currents\n\nCurrents move warm water north.\n',
      'week1/deeper/other.md': 'Nothing here.\n',
    });
    const week1 = join(space, 'week1');
    const run = await repa(sandbox, ['run', '--attach', 'notes.md', 'What moves warm water?'], {
      cwd: week1,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\[attached\] week1\/notes\.md \(\w+\)$/m);
    expect(run.stdout).toContain(
      'From week1/notes.md: Currents move warm water north. [week1/notes.md:3 "Currents move warm water north."]',
    );
    expect(run.stdout).toMatch(/^\[1\] week1\/notes\.md, line 3 ✓$/m);
  });

  it('takes a space path from the root when it is there, else from the subfolder typed in, for every option', async () => {
    const space = await spaceWith('paths', {
      'intro.md': '# Intro\n\nThe root note.\n',
      'week1/intro.md': '# Week one\n\nThe week note.\n',
      'week1/tides.md': '# Tides\n\nThe tide turns.\n',
    });
    mkdirSync(join(space, 'week1', 'empty'));
    const week1 = join(space, 'week1');
    // `intro.md` is the root's (it is there); `tides.md` and `.` are the subfolder's.
    const built = await repa(sandbox, ['context', 'build', 'intro.md', 'tides.md'], {
      cwd: week1,
    });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain('sources   intro.md, week1/tides.md\n');
    const set = await repa(
      sandbox,
      ['context', 'set', '--body', 'Tides.', '--source', 'tides.md', '--source', 'intro.md'],
      { cwd: week1 },
    );
    expect(set.code, set.stderr).toBe(0);
    const shown = await repaJson<{ learningContext: { sources: string[] } }>(
      sandbox,
      ['context', 'show'],
      { cwd: week1 },
    );
    expect(shown.json.learningContext.sources).toEqual(['week1/tides.md', 'intro.md']);
    // A passage's file part, as a quiz takes it: `tides.md:3` is the subfolder's.
    const quiz = await repa(sandbox, ['study', 'quiz', 'tides.md:3', '--count', '1', '--json'], {
      cwd: week1,
      input: 'turns\n',
    });
    expect(quiz.code, quiz.stderr).toBe(0);
    expect(quiz.stdout).toContain('"cite":"week1/tides.md:3"');
    // Neither from the root nor from here: named from the root, as the daemon reports it.
    const missing = await repa(sandbox, ['run', '--attach', 'gone.md', 'Hello.'], { cwd: week1 });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('gone.md');
    expect(missing.stderr).not.toContain('week1/gone.md');
  });
});
