// `repa context build` through a real daemon on the offline responder: folders, rebuilding from
// the recorded sources, and what it wrote shown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repa, repaJson } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useCommandsSandbox } from './commands-sandbox.js';

const { sandbox, newSpace } = useCommandsSandbox();

const sourcesOf = async (space: string) =>
  (
    await repaJson<{ learningContext: { sources: string[]; revision: string } }>(sandbox, [
      'context',
      'show',
      '--space',
      space,
    ])
  ).json.learningContext;

describe('repa context build', () => {
  it('takes a folder as its readable documents below it, in path order, and shows what it wrote', async () => {
    const space = newSpace('folders', {
      'week1/b.md': '# Waves\n\nWaves carry energy.\n',
      'week1/a.md': '# Tides\n\nThe tide turns every six hours.\n',
      'week1/deep/c.txt': 'Currents move water.\n',
      'week1/photo.png': 'not a document',
      'other.md': '# Other\n\nNot asked for.\n',
    });
    const built = await repa(sandbox, ['context', 'build', 'week1'], { cwd: space });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain('… reading 3 source(s) (from week1/)');
    expect(built.stdout).toContain('sources   week1/a.md, week1/b.md, week1/deep/c.txt\n');
    // The body it wrote, after the sources line.
    expect(built.stdout).toMatch(/sources .*\n\n\(Extractive context built offline/);
    expect(built.stdout).toContain('## week1/a.md\n- Tides\n  - The tide turns every six hours.');
    expect((await sourcesOf(space)).sources).toEqual([
      'week1/a.md',
      'week1/b.md',
      'week1/deep/c.txt',
    ]);
  });

  it('with no sources (or --rebuild) builds again from the recorded ones; with none recorded it says how to name some', async () => {
    const space = newSpace('rebuild', { 'a.md': '# Tides\n\nThe tide turns.\n' });
    const none = await repa(sandbox, ['context', 'build'], { cwd: space });
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      'repa: The space has no learning context to rebuild. (not_found)\nFix: Name the documents or folders to build it from, e.g. repa context build notes/\n',
    );
    expect((await repa(sandbox, ['context', 'build', 'a.md'], { cwd: space })).code).toBe(0);
    const first = await sourcesOf(space);
    writeFileSync(join(space, 'a.md'), '# Tides\n\nThe tide turns twice a day.\n');
    const again = await repa(sandbox, ['context', 'build'], { cwd: space });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('The tide turns twice a day.');
    const second = await sourcesOf(space);
    expect(second.sources).toEqual(['a.md']);
    expect(second.revision).not.toBe(first.revision);
    const rebuilt = await repa(sandbox, ['context', 'build', '--rebuild'], { cwd: space });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect((await sourcesOf(space)).revision).not.toBe(second.revision);
  });

  it('refuses a folder with more documents than a build reads, and one with none', async () => {
    const many: Record<string, string> = {};
    for (let index = 0; index < 51; index += 1) many[`big/n${index}.md`] = `Note ${index}.\n`;
    const space = newSpace('capped', { ...many, 'empty/photo.png': 'x' });
    const over = await repa(sandbox, ['context', 'build', 'big/'], { cwd: space });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain(
      'The folders named hold more than 50 readable documents; a learning context is built from at most 50. (invalid_request)\nFix: Name sub-folders or files of big/ instead.',
    );
    const empty = await repa(sandbox, ['context', 'build', 'empty'], { cwd: space });
    expect(empty.stderr).toContain('The folder empty/ holds no readable document.');
  });
});
