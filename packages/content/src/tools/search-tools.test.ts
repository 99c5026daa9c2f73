import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { openTools, textOf } from '../test/content-tools.js';
import { tempSpaces } from '../test/temp-space.js';

const space = tempSpaces();

const NOTES = {
  'notes/tides.md': '# Tides\nTides are caused by the moon.\nSpring tides are strong.\n',
  'notes/birds.md': '# Birds\nGulls follow the tide line.\n',
  'journal/2024.txt': 'Walked on the beach.\nThe TIDE was low.\n',
  'README.md': 'My notes about the sea.\n',
};

describe('ls tool', () => {
  it('lists one folder sorted, folders with "/", files with their size, never .repa', async () => {
    const root = await space({ ...NOTES, 'Zebra.md': 'z', '.repa/secret.md': 'x' });
    const { call } = await openTools(root);
    const result = await call('ls', {});
    expect(textOf(result)).toBe('journal/\nnotes/\nREADME.md (24B)\nZebra.md (1B)');
    expect(textOf(await call('ls', { path: 'notes' }))).toBe('birds.md (36B)\ntides.md (63B)');
  });

  it('marks that more entries exist past the limit', async () => {
    const root = await space({ 'a.md': 'a', 'b.md': 'b', 'c.md': 'c' });
    const { call } = await openTools(root);
    const result = await call('ls', { limit: 2 });
    expect(textOf(result)).toContain('a.md (1B)\nb.md (1B)\n\n[2 entries limit reached; 1 more.');
    expect(result.details).toMatchObject({ entryLimitReached: 2 });
  });

  it('skips .gitignored entries, node_modules and .git unless includeIgnored is true', async () => {
    const root = await space({
      '.gitignore': 'build/\n*.log\n',
      'build/out.md': 'x',
      'debug.log': 'x',
      'node_modules/pkg/index.js': 'x',
      '.git/HEAD': 'x',
      'kept.md': 'kept',
    });
    const { call } = await openTools(root);
    const result = await call('ls', {});
    expect(textOf(result).split('\n\n')[0]).toBe('.gitignore (13B)\nkept.md (4B)');
    expect(result.details).toMatchObject({ ignored: 4 });
    const all = await call('ls', { includeIgnored: true });
    expect(textOf(all)).toBe(
      '.git/\n.gitignore (13B)\nbuild/\ndebug.log (1B)\nkept.md (4B)\nnode_modules/',
    );
  });

  it('refuses a folder through ".." and a file', async () => {
    const root = await space(NOTES);
    const { call } = await openTools(root);
    expect((await repaErrorOf(call('ls', { path: '../' }))).code).toBe('path_outside_space');
    expect((await repaErrorOf(call('ls', { path: '.repa' }))).code).toBe('protected_path');
    expect((await repaErrorOf(call('ls', { path: 'README.md' }))).code).toBe('invalid_request');
  });
});

describe('find tool', () => {
  it('matches a name glob at any depth and a path glob, naming space-relative paths', async () => {
    const root = await space(NOTES);
    const { call } = await openTools(root);
    expect(textOf(await call('find', { pattern: '*.md' }))).toBe(
      'README.md\nnotes/birds.md\nnotes/tides.md',
    );
    expect(textOf(await call('find', { pattern: 'notes/t*.md' }))).toBe('notes/tides.md');
    expect(textOf(await call('find', { pattern: '*.md', path: 'notes' }))).toBe(
      'notes/birds.md\nnotes/tides.md',
    );
    expect(textOf(await call('find', { pattern: '*.pdf' }))).toBe(
      'No files found matching pattern',
    );
  });

  it('names the identity of a file that has one, without assigning any', async () => {
    const root = await space(NOTES);
    const { call, store } = await openTools(root);
    const { identity } = await store.read('notes/tides.md');
    const result = await call('find', { pattern: '*.md' });
    expect(textOf(result)).toContain(`\n\nIdentities:\nnotes/tides.md ${identity}`);
    expect(result.details.files).toEqual([
      { path: 'README.md' },
      { path: 'notes/birds.md' },
      { path: 'notes/tides.md', identity },
    ]);
    // Nothing else was given one: a fresh store (reading the space's index and log) knows only it.
    const lookup = await (await ContentStore.open({ root, hooks: {} })).identityLookup();
    expect(['README.md', 'notes/birds.md', 'notes/tides.md'].map(lookup)).toEqual([
      undefined,
      undefined,
      identity,
    ]);
  });

  it('refuses a glob that leaves the space', async () => {
    const root = await space(NOTES);
    const { call } = await openTools(root);
    for (const pattern of ['../**', 'notes/../../x', '/etc/*']) {
      expect((await repaErrorOf(call('find', { pattern }))).code).toBe('path_outside_space');
    }
  });

  it('ignores case for a pattern without capitals, as fd does, and keeps it for one with', async () => {
    const root = await space({ 'scans/SCAN.PDF': '%PDF', 'scans/notes.pdf': '%PDF' });
    const { call } = await openTools(root);
    expect(textOf(await call('find', { pattern: '*.pdf' })).split('\n\n')[0]).toBe(
      'scans/SCAN.PDF\nscans/notes.pdf',
    );
    expect(textOf(await call('find', { pattern: '*.PDF' })).split('\n\n')[0]).toBe(
      'scans/SCAN.PDF',
    );
  });

  it('refuses a malformed glob as invalid_request, in find and in grep, naming the fault', async () => {
    const root = await space(NOTES);
    const { call } = await openTools(root);
    for (const [pattern, fault] of [
      ['notes/[ab', "'[' at character 7 is never closed"],
      ['*.{md,txt', "'{' is never closed"],
      ['*.md}', "'}' at character 5 closes no '{'"],
      ['tides\\', 'escapes nothing'],
    ]) {
      const found = await repaErrorOf(call('find', { pattern }));
      expect([pattern, found.code, found.message]).toEqual([
        pattern,
        'invalid_request',
        expect.stringContaining(fault as string),
      ]);
      expect((await repaErrorOf(call('grep', { pattern: 'x', glob: pattern }))).code).toBe(
        'invalid_request',
      );
    }
  });

  it('stops at the entries bound and says so', async () => {
    const root = await space(NOTES);
    const { call } = await openTools(root, {}, { searchLimits: { maxEntries: 3 } });
    const result = await call('find', { pattern: '*' });
    expect(textOf(result)).toContain('Stopped early: 3 entries visited');
    expect(result.details).toMatchObject({ stoppedEarly: '3 entries visited' });
  });
});

describe('grep tool', () => {
  it("answers in Pi's shape: path:line: text, context lines path-line- text", async () => {
    const root = await space(NOTES);
    const { call } = await openTools(root);
    expect(textOf(await call('grep', { pattern: 'moon' }))).toBe(
      'notes/tides.md:2: Tides are caused by the moon.',
    );
    expect(textOf(await call('grep', { pattern: 'moon', context: 1 }))).toBe(
      'notes/tides.md-1- # Tides\nnotes/tides.md:2: Tides are caused by the moon.\nnotes/tides.md-3- Spring tides are strong.',
    );
    expect(textOf(await call('grep', { pattern: 'nothing here' }))).toBe('No matches found');
  });

  it('honours ignoreCase, literal, glob and a path', async () => {
    const root = await space({ ...NOTES, 'notes/regex.md': 'a.b\naxb\n' });
    const { call } = await openTools(root);
    expect(textOf(await call('grep', { pattern: 'tide', ignoreCase: true, glob: '*.txt' }))).toBe(
      'journal/2024.txt:2: The TIDE was low.',
    );
    expect(textOf(await call('grep', { pattern: 'a.b', literal: true }))).toBe(
      'notes/regex.md:1: a.b',
    );
    expect(textOf(await call('grep', { pattern: 'a.b' }))).toBe(
      'notes/regex.md:1: a.b\nnotes/regex.md:2: axb',
    );
    expect(textOf(await call('grep', { pattern: 'tide', path: 'notes/birds.md' }))).toBe(
      'notes/birds.md:2: Gulls follow the tide line.',
    );
  });

  it('is not a read: it records no observation, so edit still needs read', async () => {
    const root = await space(NOTES);
    const { call, observer } = await openTools(root);
    await call('grep', { pattern: 'moon' });
    expect(observer.list()).toEqual([]);
    const error = await repaErrorOf(
      call('edit', { path: 'notes/tides.md', edits: [{ oldText: 'moon', newText: 'Moon' }] }),
    );
    expect(error.code).toBe('read_required');
  });

  it('names identities where they exist', async () => {
    const root = await space(NOTES);
    const { call, store } = await openTools(root);
    const { identity } = await store.read('notes/tides.md');
    const result = await call('grep', { pattern: 'tide', ignoreCase: true, glob: 'notes/**' });
    expect(result.details.hits).toEqual([
      { path: 'notes/birds.md', line: 2 },
      { path: 'notes/tides.md', identity, line: 1 },
      { path: 'notes/tides.md', identity, line: 2 },
      { path: 'notes/tides.md', identity, line: 3 },
    ]);
    expect(textOf(result)).toContain(`Identities:\nnotes/tides.md ${identity}`);
  });

  it('never searches .repa, and skips ignored paths unless includeIgnored is true', async () => {
    const root = await space({
      'a.md': 'needle',
      '.repa/notes.md': 'needle',
      '.gitignore': 'secret/\n',
      'secret/b.md': 'needle',
      'node_modules/c.md': 'needle',
    });
    const { call } = await openTools(root);
    expect(textOf(await call('grep', { pattern: 'needle' })).split('\n\n')[0]).toBe(
      'a.md:1: needle',
    );
    expect(
      textOf(await call('grep', { pattern: 'needle', includeIgnored: true })).split('\n\n')[0],
    ).toBe('a.md:1: needle\nnode_modules/c.md:1: needle\nsecret/b.md:1: needle');
  });

  it('applies a nested .gitignore below its folder only', async () => {
    const root = await space({
      'docs/.gitignore': 'draft.md\n',
      'docs/draft.md': 'needle',
      'draft.md': 'needle',
    });
    const { call } = await openTools(root);
    expect(textOf(await call('grep', { pattern: 'needle' })).split('\n\n')[0]).toBe(
      'draft.md:1: needle',
    );
  });

  it('follows symlinks inside the space, never those that leave it', async () => {
    const outside = await space({ 'leak.md': 'needle outside', 'dir/leak.md': 'needle outside' });
    const root = await space({ 'real/in.md': 'needle inside' });
    await symlink(join(outside, 'leak.md'), join(root, 'out-file.md'));
    await symlink(join(outside, 'dir'), join(root, 'out-dir'));
    await symlink(join(root, 'real'), join(root, 'alias'));
    const { call } = await openTools(root);
    const result = await call('grep', { pattern: 'needle' });
    expect(textOf(result)).toBe(
      'alias/in.md:1: needle inside\n\n[2 symlink(s) leaving the space not followed]',
    );
    expect(textOf(await call('find', { pattern: '*.md' })).split('\n\n')[0]).toBe('alias/in.md');
  });

  it('searches a granted outside material only when it is named', async () => {
    const root = await space({ 'a.md': 'nothing' });
    const outside = await space({ 'paper.txt': 'the needle is here' });
    const appDirectory = await space({
      'repa-content-access.json': JSON.stringify({
        format: 'repa.content-access/1',
        materials: { paper: { path: join(outside, 'paper.txt') } },
      }),
    });
    const { call } = await openTools(root, { appDirectory });
    expect(textOf(await call('grep', { pattern: 'needle' }))).toBe('No matches found');
    const named = await call('grep', { pattern: 'needle', path: 'repa:material/paper' });
    expect(named.details.hits).toEqual([
      { path: 'repa:material/paper', identity: 'repa:material/paper', line: 1 },
    ]);
  });

  it('refuses a pattern that does not compile, naming it', async () => {
    const root = await space(NOTES);
    const { call } = await openTools(root);
    const error = await repaErrorOf(call('grep', { pattern: 'tide(' }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('"tide("');
    const leaving = await repaErrorOf(call('grep', { pattern: 'x', glob: '../*.md' }));
    expect(leaving.code).toBe('path_outside_space');
  });

  it('finishes a catastrophic pattern on a long line (RE2 matching is linear)', async () => {
    const root = await space({ 'long.txt': `${'a'.repeat(200_000)}b\n` });
    const { call } = await openTools(root);
    expect(textOf(await call('grep', { pattern: '(a+)+$' }))).toBe('No matches found');
  });

  it('names a file whose matching ran past the per-file time box', async () => {
    const root = await space({ 'slow.md': 'needle\n' });
    const { call } = await openTools(root, {}, { searchLimits: { matchMillisPerFile: 0 } });
    const result = await call('grep', { pattern: 'needle' });
    expect(textOf(result)).toContain('Matching stopped after 0 ms in slow.md');
    expect(result.details.skippedFiles).toEqual([{ path: 'slow.md', reason: 'too slow' }]);
  });

  it('skips binary files, too large files and a FIFO without opening it', async () => {
    const root = await space({
      'a.md': 'needle',
      'bin.dat': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]),
      'big.md': `needle ${'x'.repeat(100)}`,
    });
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    const { call } = await openTools(root, {}, { searchLimits: { maxFileBytes: 50 } });
    const result = await call('grep', { pattern: 'needle' });
    expect(textOf(result)).toBe(
      'a.md:1: needle\n\n[Skipped as larger than 50B: big.md. 1 FIFO(s), socket(s) or device(s) skipped]',
    );
  });

  it('stops at the bytes bound and says so', async () => {
    const root = await space({ 'a.md': 'x'.repeat(40), 'b.md': 'needle' });
    const { call } = await openTools(root, {}, { searchLimits: { maxBytes: 30 } });
    const result = await call('grep', { pattern: 'needle' });
    expect(result.details).toMatchObject({ stoppedEarly: '30B of files read', hits: [] });
  });
});

describe('skill files', () => {
  const skillSetup = async () => {
    const root = await space({ 'a.md': 'in the space' });
    const skills = await space({
      'tides/SKILL.md': '---\nname: tides\n---\nRead tables.md first.\n',
      'tides/tables.md': 'high water 06:12\n',
      'loose.md': 'a loose skill',
      'other.md': 'not a skill',
    });
    await mkdir(join(skills, 'elsewhere'));
    await writeFile(join(skills, 'elsewhere/x.md'), 'not offered');
    const skillFiles = [join(skills, 'tides/SKILL.md'), join(skills, 'loose.md')];
    const tools = await openTools(root, {}, { skillFiles: () => skillFiles });
    return { ...tools, root, skills };
  };

  it('reads an offered skill file and the files beside a SKILL.md, untracked', async () => {
    const { call, observer, skills } = await skillSetup();
    const result = await call('read', { path: join(skills, 'tides/SKILL.md') });
    expect(textOf(result)).toContain('Read tables.md first.');
    expect(result.details).toMatchObject({ skill: true, outside: true });
    expect(textOf(await call('read', { path: join(skills, 'tides/tables.md') }))).toBe(
      'high water 06:12\n',
    );
    expect(textOf(await call('read', { path: join(skills, 'loose.md') }))).toBe('a loose skill');
    expect(observer.list()).toEqual([]);
  });

  it('keeps every other outside path unreadable', async () => {
    const { call, skills } = await skillSetup();
    for (const path of [
      join(skills, 'other.md'),
      join(skills, 'elsewhere/x.md'),
      '/etc/hostname',
    ]) {
      expect((await repaErrorOf(call('read', { path }))).code).toBe('path_outside_space');
    }
  });

  it('refuses write, edit and apply_patch on a skill file with protected_path', async () => {
    const { call, skills } = await skillSetup();
    const file = join(skills, 'tides/SKILL.md');
    await call('read', { path: file });
    const errors = [
      await repaErrorOf(call('write', { path: file, content: 'x' })),
      await repaErrorOf(call('edit', { path: file, edits: [{ oldText: 'Read', newText: 'R' }] })),
      await repaErrorOf(
        call('apply_patch', {
          input: `*** Begin Patch\n*** Delete File: ${file}\n*** End Patch`,
        }),
      ),
    ];
    expect(errors.map((error) => error.code)).toEqual([
      'protected_path',
      'protected_path',
      'protected_path',
    ]);
    expect(await readFile(file, 'utf8')).toContain('Read tables.md first.');
  });
});
