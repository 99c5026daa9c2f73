import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { inspectSpaceForTrust } from './trust-preview.js';

const nothingKnown = { contexts: [], session: () => false };

function folderWith(files: Record<string, string>): { base: string; space: string } {
  const base = mkdtempSync(join(tmpdir(), 'repa-trust-preview-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const space = join(base, 'course');
  mkdirSync(space);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(space, path)), { recursive: true });
    writeFileSync(join(space, path), text);
  }
  return { base, space };
}

describe('inspectSpaceForTrust', () => {
  it('lists every extension Pi would load and every package, extension and npm command its settings name as code, first', async () => {
    const { space } = folderWith({
      'AGENTS.md': 'Be kind.\n',
      '.pi/extensions/a.ts': '',
      '.pi/extensions/notes.txt': '',
      '.pi/extensions/.hidden.js': '',
      '.pi/extensions/folder/index.js': '',
      '.pi/extensions/empty/readme.md': '',
      '.pi/settings.json': `\uFEFF${JSON.stringify({
        packages: ['npm:one', { source: 'git:github.com/x/two' }, 42],
        extensions: ['../tools/ext.js'],
        npmCommand: ['sh', '-c', 'touch /tmp/x'],
      })}`,
      '.pi/prompts/quiz.md': 'Quiz me.\n',
      '.pi/prompts/not-a-template.txt': '',
      '.pi/skills/top.md': '',
      '.pi/skills/deep/er/SKILL.md': '',
    });
    symlinkSync('/elsewhere/ext.js', join(space, '.pi', 'extensions', 'linked.js'));
    const items = await inspectSpaceForTrust(space, nothingKnown);
    const code = items.filter((item) => item.runsCode);
    expect(items.slice(0, code.length)).toEqual(code);
    expect(code.map((item) => [item.path, item.name])).toEqual([
      ['.pi/extensions/a.ts', undefined],
      ['.pi/extensions/folder', undefined],
      ['.pi/extensions/linked.js', undefined],
      ['.pi/settings.json', 'npm:one'],
      ['.pi/settings.json', 'git:github.com/x/two'],
      ['.pi/settings.json', '../tools/ext.js'],
      ['.pi/settings.json', 'sh -c touch /tmp/x'],
    ]);
    expect(code[2]?.detail).toContain('A link to /elsewhere/ext.js');
    expect(items.filter((item) => !item.runsCode).map((item) => [item.path, item.name])).toEqual([
      ['.pi/prompts/quiz.md', 'quiz'],
      ['.pi/settings.json', undefined],
      ['.pi/skills/deep/er/SKILL.md', 'er'],
      ['.pi/skills/top.md', 'top'],
      ['AGENTS.md', undefined],
    ]);
  });

  it('names a link where Pi expects its folder as code, and never opens a FIFO instruction file', async () => {
    const { base, space } = folderWith({ 'notes.md': 'Tides.\n' });
    mkdirSync(join(base, 'far', 'extensions'), { recursive: true });
    writeFileSync(join(base, 'far', 'extensions', 'x.js'), '');
    symlinkSync(join(base, 'far'), join(space, '.pi'));
    execFileSync('mkfifo', [join(space, 'AGENTS.md')]);
    const items = await inspectSpaceForTrust(space, nothingKnown);
    expect(items).toEqual([
      expect.objectContaining({
        path: '.pi',
        runsCode: true,
        detail: expect.stringContaining(`A link to ${join(base, 'far')}`),
      }),
      expect.objectContaining({
        path: 'AGENTS.md',
        detail: expect.stringContaining('Not a regular file'),
      }),
    ]);
  });

  it('quotes at most five lines of the instruction file Pi reads, bounded, control characters escaped', async () => {
    const long = 'x'.repeat(500);
    const { space } = folderWith({
      'AGENTS.override.md': `one\u0007\r\n\u202Eevil\n${long}\n${long}\n${long}\n${long}\nseventh\n`,
      'CLAUDE.md': 'Shadowed.\n',
    });
    const items = await inspectSpaceForTrust(space, nothingKnown);
    const [read, shadowed] = items;
    expect(read?.lines?.slice(0, 2)).toEqual(['one\\u{7}', '\\u{202e}evil']);
    expect(read?.lines?.join('').length).toBeLessThanOrEqual(420);
    expect(read?.lines?.join('\n')).not.toContain('seventh');
    expect(shadowed).toMatchObject({
      path: 'CLAUDE.md',
      detail: expect.stringContaining('while AGENTS.override.md is there'),
    });
    expect(shadowed?.lines).toBeUndefined();
  });

  it('names at most 50 extensions and stops reading after 2,000 entries, saying more may run as code', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 60; index += 1) files[`.pi/extensions/e${index}.js`] = '';
    const { space } = folderWith(files);
    for (let index = 0; index < 2_000; index += 1) {
      mkdirSync(join(space, '.pi', 'skills', `s${index}`), { recursive: true });
    }
    const items = await inspectSpaceForTrust(space, nothingKnown);
    const code = items.filter((item) => item.runsCode);
    expect(code).toHaveLength(52);
    expect(code[50]?.detail).toBe(
      '10 more extensions not named here; each runs as code on your machine with your rights.',
    );
    expect(code[51]?.detail).toContain('More than 2000 entries: Repa stopped listing them');
  });
});
