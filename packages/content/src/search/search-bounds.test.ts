import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { tempSpace } from '../test/temp-space.js';

// Spec R74: every read, parse and match whose size the space controls is bounded and yields.
// A pathological case that holds the event loop on the old code fails by the test's timeout
// (vitest reports it once the loop is free again); timings are in the bench, never asserted.
const HANG = 10_000;

const dirs: string[] = [];
const space = async (files: Record<string, string | Uint8Array> = {}) => {
  const root = await tempSpace(files);
  dirs.push(root);
  return root;
};
// `rm -rf` removes folders nested past PATH_MAX (Node's recursive rm gives ENAMETOOLONG there).
afterEach(() => {
  for (const dir of dirs.splice(0)) execFileSync('rm', ['-rf', dir]);
});

describe('find and grep globs', () => {
  it(
    'match a backtracking-prone glob against a long name in linear time',
    async () => {
      const root = await space({
        [`${'a'.repeat(56)}.md`]: 'x',
        'aaaaaaaab.md': 'x',
        'notes/aaaaaaaaaaaab': 'x',
      });
      const { call } = await openTools(root);
      const result = await call('find', { pattern: '*a*a*a*a*a*a*a*a*b' });
      expect(result.details.files).toEqual([{ path: 'notes/aaaaaaaaaaaab' }]);
      const grep = await call('grep', { pattern: 'x', glob: '*a*a*a*a*a*a*a*a*b*' });
      expect(grep.details.hits).toEqual([
        { path: 'aaaaaaaab.md', line: 1 },
        { path: 'notes/aaaaaaaaaaaab', line: 1 },
      ]);
    },
    HANG,
  );

  it('refuses a glob longer than its limit with invalid_request', async () => {
    const root = await space({ 'a.md': 'x' });
    const { call } = await openTools(root);
    const result = call('find', { pattern: '*'.repeat(1001) });
    await expect(result).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(result).rejects.toThrow(/1001 characters long, over the limit of 1000/);
  });
});

describe('.gitignore files', () => {
  it(
    'match a backtracking-prone rule against a deep path in linear time',
    async () => {
      const deep = `a/${'x/'.repeat(40)}`;
      const root = await space({
        '.gitignore': `a/${'**/'.repeat(8)}b\n`,
        [`${deep}b`]: 'needle',
        [`${deep}c.md`]: 'needle',
      });
      const { call } = await openTools(root);
      const result = await call('grep', { pattern: 'needle' });
      expect(result.details.hits).toEqual([{ path: `${deep}c.md`, line: 1 }]);
    },
    HANG,
  );

  it('applies negations, anchors and folder-only rules as git does', async () => {
    const root = await space({
      '.gitignore': '*.log\n!keep.log\n/build\ncache/\ndocs/*.tmp\n\\#hash\nspace\\ \n',
      'a.log': 'x',
      'keep.log': 'x',
      'build/out.md': 'x',
      'src/build/kept.md': 'x',
      'cache/c.md': 'x',
      'notes/cache': 'x',
      'docs/a.tmp': 'x',
      'docs/sub/b.tmp': 'x',
      '#hash': 'x',
      'space ': 'x',
      'sub/.gitignore': '!*.log\n',
      'sub/again.log': 'x',
    });
    const { call } = await openTools(root);
    const result = await call('find', { pattern: '*' });
    expect(result.details.files).toEqual([
      { path: '.gitignore' },
      { path: 'docs/sub/b.tmp' },
      { path: 'keep.log' },
      { path: 'notes/cache' },
      { path: 'src/build/kept.md' },
      { path: 'sub/.gitignore' },
      { path: 'sub/again.log' },
    ]);
  });

  it('are not applied when too large, too long or not a regular file, and the result says so', async () => {
    const root = await space({
      'big/.gitignore': `${'x'.repeat(300 * 1024)}\n*.md\n`,
      'big/a.md': 'needle',
      'many/.gitignore': `${Array.from({ length: 1001 }, (_, index) => `rule-${index}`).join('\n')}\n*.md\n`,
      'many/b.md': 'needle',
      'fifo/c.md': 'needle',
      'small/.gitignore': '*.md\n',
      'small/d.md': 'needle',
    });
    execFileSync('mkfifo', [join(root, 'fifo/.gitignore')]);
    const { call } = await openTools(root);
    const result = await call('grep', { pattern: 'needle' });
    expect(result.details.hits).toEqual([
      { path: 'big/a.md', line: 1 },
      { path: 'fifo/c.md', line: 1 },
      { path: 'many/b.md', line: 1 },
    ]);
    expect(result.details.ignoreFilesNotApplied).toEqual({
      count: 3,
      files: [
        { path: 'big/.gitignore', reason: 'larger than 256.0KB' },
        { path: 'fifo/.gitignore', reason: 'not a regular file' },
        { path: 'many/.gitignore', reason: 'more than 1000 rules' },
      ],
    });
    expect(textOf(result)).toContain(
      '.gitignore file(s) not applied, so the paths they name are included: big/.gitignore (larger than 256.0KB), fifo/.gitignore (not a regular file), many/.gitignore (more than 1000 rules)',
    );
  });
});

describe('deep folders', () => {
  it('are skipped with a reason past PATH_MAX, the rest answered, no absolute path shown', async () => {
    const root = await space({ 'a.md': 'needle' });
    // Each `cd` is relative, so the folders go past PATH_MAX (4096) where one path could not.
    const name = 'd'.repeat(200);
    execFileSync('bash', [
      '-c',
      `cd "$1" && mkdir deep && cd deep && for i in $(seq 25); do mkdir ${name} && cd ${name}; done && echo needle > z.md`,
      'bash',
      root,
    ]);
    const { call } = await openTools(root);
    for (const result of [
      await call('find', { pattern: '*.md' }),
      await call('grep', { pattern: 'needle' }),
    ]) {
      const text = textOf(result);
      expect(text.split('\n')[0]).toMatch(/^a\.md(:1: needle)?$/);
      expect(text).toContain(
        `1 folder(s) nested too deep skipped (more than 100 levels, or a path longer than the system allows), the first: deep/${name.slice(0, 114)}…`,
      );
      expect(text).not.toContain(root);
      expect(result.details.tooDeep).toMatchObject({ count: 1 });
    }
    const deepFile = `deep/${Array(25).fill(name).join('/')}/z.md`;
    for (const error of [
      await repaErrorOf(call('read', { path: deepFile })),
      await repaErrorOf(call('ls', { path: deepFile.slice(0, -'/z.md'.length) })),
    ]) {
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('is longer than the system allows (ENAMETOOLONG)');
      expect(error.message).not.toContain(root);
    }
  });

  it('are not entered past 100 levels below the folder searched', async () => {
    const root = await space({ 'a.md': 'x' });
    await mkdir(join(root, ...Array(102).fill('f')), { recursive: true });
    await writeFile(join(root, ...Array(102).fill('f'), 'deep.md'), 'x');
    const { call } = await openTools(root);
    const result = await call('find', { pattern: '*.md' });
    expect(result.details.files).toEqual([{ path: 'a.md' }]);
    const first = Array(101).fill('f').join('/');
    expect(result.details.tooDeep).toEqual({ count: 1, first: `${first.slice(0, 119)}…` });
  });
});

describe('grep on long lines', () => {
  it('matches a line longer than a slice in overlapping pieces, keeping line numbers', async () => {
    const long = `${'x'.repeat(600_000)} needle ${'y'.repeat(600_000)}`;
    const root = await space({ 'one.txt': `${long}\nneedle after\n`, 'plain.md': 'needle' });
    const { call } = await openTools(root);
    const result = await call('grep', { pattern: 'needle' });
    expect(result.details.hits).toEqual([
      { path: 'one.txt', line: 1 },
      { path: 'one.txt', line: 2 },
      { path: 'plain.md', line: 1 },
    ]);
    expect(result.details.longLines).toBe(1);
    expect(textOf(result)).toContain(
      '1 line(s) longer than 262144 characters were searched in pieces of that size overlapping by 4096',
    );
  });
});

describe('the time bound', () => {
  it('stops a call that used its time and says so', async () => {
    const root = await space({ 'a.md': 'needle', 'b/c.md': 'needle' });
    const { call } = await openTools(root, {}, { searchLimits: { maxMillis: 0 } });
    const result = await call('grep', { pattern: 'needle' });
    expect(result.details.stoppedEarly).toBe('0 s of searching');
    expect(textOf(result)).toContain('Stopped early: 0 s of searching');
  });
});
