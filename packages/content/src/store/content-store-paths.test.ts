import { readdir, readFile, rename, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { caseInsensitiveFs } from '../test/case-insensitive-fs.js';
import { openTools } from '../test/content-tools.js';
import { readTextTree, readTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const folder = tempSpaces();

/** The space's whole tree, `.repa/` included, to prove nothing was created. */
const everything = async (root: string) =>
  Object.keys(await readTree(root, { withRepa: true }))
    .filter((path) => path !== '.repa/.gitignore') // What a new .repa/ holds from the start.
    .sort();

/** The space's entries other than Repa's own `.repa` folder (a save takes its lock there). */
const userEntries = async (root: string) =>
  (await readdir(root)).filter((name) => name !== '.repa');

describe('ContentStore path safety', () => {
  describe('spellings', () => {
    it.each([
      ['/etc/passwd', 'path_outside_space'],
      ['../outside.md', 'path_outside_space'],
      ['a/../../outside.md', 'path_outside_space'],
      ['new/dir/a\0.md', 'invalid_request'],
      ['new/CON', 'invalid_request'],
      ['new/con.txt', 'invalid_request'],
      ['new/dir./a.md', 'invalid_request'],
      ['new/a.md ', 'invalid_request'],
      ['.repa/identities.json', 'protected_path'],
      ['.REPA/x.md', 'protected_path'],
      ['.rep\u0430/x.md', 'protected_path'],
      ['\uFF0Erepa/x.md', 'protected_path'],
      ['REPA~1', 'protected_path'],
      ['repa~2/x.md', 'protected_path'],
      ['docs/Repa~12', 'protected_path'],
      ['a:b', 'invalid_request'],
      ['notes.md:stream', 'invalid_request'],
      ['docs/x:y/a.md', 'invalid_request'],
      ['C:', 'path_outside_space'],
      ['C:\\x.md', 'path_outside_space'],
      ['c:/x.md', 'path_outside_space'],
    ])('refuses %j with %s for read and save, creating nothing', async (path, code) => {
      const root = await folder({ 'keep.md': 'k' });
      const store = await ContentStore.open({ root });
      const before = await everything(root);
      expect((await repaErrorOf(store.read(path))).code).toBe(code);
      const save = store.save([{ target: path, content: bytes('x'), expectedVersion: null }]);
      expect((await repaErrorOf(save)).code).toBe(code);
      expect(await everything(root)).toEqual(before);
    });
  });

  describe('names', () => {
    it('accepts names that merely start with two dots', async () => {
      const root = await folder();
      const store = await ContentStore.open({ root });
      const [receipt] = await store.save([
        { target: '..notes.md', content: bytes('n'), expectedVersion: null },
      ]);
      expect(receipt?.target).toBe('..notes.md');
      expect((await store.read('..notes.md')).bytes.toString()).toBe('n');
      expect(await readFile(join(root, '..notes.md'), 'utf8')).toBe('n');
    });

    it('refuses a save whose targets differ only by case or normalisation, writing nothing', async () => {
      const root = await folder({ 'keep.md': 'k' });
      const store = await ContentStore.open({ root });
      const before = await everything(root);
      for (const [first, second] of [
        ['A.md', 'a.md'],
        ['Notes/x.md', 'notes/y.md'],
        ['caf\u00e9.md', 'CAFE\u0301.md'],
        ['stra\u00dfe.md', 'STRASSE.md'],
      ] as const) {
        const save = store.save([
          { target: first, content: bytes('1'), expectedVersion: null },
          { target: second, content: bytes('2'), expectedVersion: null },
        ]);
        const error = await repaErrorOf(save);
        expect(error.code).toBe('invalid_request');
        expect(error.message).toContain(JSON.stringify(first.split('/')[0]));
      }
      expect(await everything(root)).toEqual(before);
    });

    it('apply_patch adding A.md and a.md fails with invalid_request and creates nothing', async () => {
      const root = await folder();
      const { call } = await openTools(root);
      const input = [
        '*** Begin Patch',
        '*** Add File: A.md',
        '+upper',
        '*** Add File: a.md',
        '+lower',
        '*** End Patch',
      ].join('\n');
      expect((await repaErrorOf(call('apply_patch', { input }))).code).toBe('invalid_request');
      expect(await userEntries(root)).toEqual([]);
    });
  });

  describe('case-insensitive disks', () => {
    it('on a case-sensitive disk, a new a.md next to A.md is a different file', async () => {
      const root = await folder({ 'A.md': 'upper' });
      const store = await ContentStore.open({ root });
      await store.save([{ target: 'a.md', content: bytes('lower'), expectedVersion: null }]);
      expect(await readTextTree(root)).toEqual({ 'A.md': 'upper', 'a.md': 'lower' });
    });

    it('on a case-insensitive disk, refuses a new name that matches an existing one, naming both', async () => {
      const root = await folder({ 'A.md': 'upper', 'Notes/x.md': 'x' });
      const store = await ContentStore.open({ root, fs: caseInsensitiveFs(root) });
      for (const [target, existing] of [
        ['a.md', 'A.md'],
        ['notes/y.md', 'Notes'],
      ]) {
        const save = store.save([
          { target: target as string, content: bytes('new'), expectedVersion: null },
        ]);
        const error = await repaErrorOf(save);
        expect(error.code).toBe('invalid_request');
        expect(error.message).toContain(JSON.stringify(target));
        expect(error.message).toContain(JSON.stringify(existing));
      }
      expect(await readTextTree(root)).toEqual({ 'A.md': 'upper', 'Notes/x.md': 'x' });
      // The existing spelling still works.
      await store.save([{ target: 'Notes/y.md', content: bytes('y'), expectedVersion: null }]);
      expect((await readTextTree(root))['Notes/y.md']).toBe('y');
    });

    it('probes an empty space on a case-insensitive disk and leaves no probe behind', async () => {
      const root = await folder();
      const store = await ContentStore.open({ root, fs: caseInsensitiveFs(root) });
      expect(await readdir(root)).toEqual([]);
      await store.save([{ target: 'A.md', content: bytes('upper'), expectedVersion: null }]);
      const save = store.save([{ target: 'a.md', content: bytes('lower'), expectedVersion: null }]);
      expect((await repaErrorOf(save)).code).toBe('invalid_request');
      expect(await readTextTree(root)).toEqual({ 'A.md': 'upper' });
    });

    it('removes a case probe left by a crash when the space is opened again', async () => {
      const leftover = '.repa-case-probe-0f3c5a2e-7d4b-4c1e-9a6f-2b8d1e0c3f47';
      const root = await folder({ [leftover]: '', '1.txt': 'one' });
      await ContentStore.open({ root });
      expect(await readdir(root)).toEqual(['1.txt']);
    });

    it('opens a space whose root lists many names without letters in linear time', async () => {
      const root = await folder({ 'Notes.md': 'n' });
      // The real disk, its root listing 200,000 more names without a letter (such as 0001).
      const many = Array.from({ length: 200_000 }, (_, index) => String(index));
      const fs: FsLayer = {
        ...nodeFsLayer,
        readdir: async (path) => {
          const names = await nodeFsLayer.readdir(path);
          return path === root ? [...many, ...names] : names;
        },
      };
      const store = await ContentStore.open({ root, fs });
      await store.save([{ target: 'notes.md', content: bytes('lower'), expectedVersion: null }]);
      expect(await readTextTree(root)).toEqual({ 'Notes.md': 'n', 'notes.md': 'lower' });
    }, 10_000); // Comparing every name with every other (the old code) took minutes: it fails by this timeout.

    it('probes an empty space on a case-sensitive disk as case-sensitive', async () => {
      const root = await folder();
      const store = await ContentStore.open({ root });
      expect(await readdir(root)).toEqual([]);
      await store.save([{ target: 'A.md', content: bytes('upper'), expectedVersion: null }]);
      await store.save([{ target: 'a.md', content: bytes('lower'), expectedVersion: null }]);
      expect(await readTextTree(root)).toEqual({ 'A.md': 'upper', 'a.md': 'lower' });
    });
  });

  describe('symlinks', () => {
    it('refuses a symlinked folder that leaves the space, creating nothing on either side', async () => {
      const root = await folder({ 'keep.md': 'k' });
      const outside = await folder({ 'secret.txt': 'secret' });
      await symlink(outside, join(root, 'out'));
      const store = await ContentStore.open({ root });
      expect((await repaErrorOf(store.read('out/secret.txt'))).code).toBe('path_outside_space');
      for (const target of ['out/new.md', 'out/deep/er/new.md', 'out/secret.txt']) {
        const save = store.save([{ target, content: bytes('x'), expectedVersion: null }]);
        expect((await repaErrorOf(save)).code).toBe('path_outside_space');
      }
      expect(await readdir(outside)).toEqual(['secret.txt']);
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    });

    it('refuses a symlinked file that leaves the space and a dangling symlink', async () => {
      const root = await folder();
      const outside = await folder({ 'secret.txt': 'secret' });
      await symlink(join(outside, 'secret.txt'), join(root, 'link.md'));
      await symlink(join(outside, 'missing.txt'), join(root, 'dangling.md'));
      const store = await ContentStore.open({ root });
      expect((await repaErrorOf(store.read('link.md'))).code).toBe('path_outside_space');
      expect((await repaErrorOf(store.read('dangling.md'))).code).toBe('path_outside_space');
      const save = store.save([
        { target: 'dangling.md', content: bytes('x'), expectedVersion: null },
      ]);
      expect((await repaErrorOf(save)).code).toBe('path_outside_space');
      expect(await readdir(outside)).toEqual(['secret.txt']);
    });

    it('follows a symlink that stays inside the space to its real target', async () => {
      const root = await folder({ 'real/a.md': 'a' });
      await symlink(join(root, 'real'), join(root, 'alias'));
      const store = await ContentStore.open({ root });
      const snapshot = await store.read('alias/a.md');
      expect(snapshot.target).toBe('real/a.md');
      await store.save([
        { target: 'alias/a.md', content: bytes('b'), expectedVersion: snapshot.version },
      ]);
      expect(await readFile(join(root, 'real/a.md'), 'utf8')).toBe('b');
    });

    it('refuses a symlink that leads into .repa', async () => {
      const root = await folder();
      const store = await ContentStore.open({ root });
      await store.save([{ target: 'a.md', content: bytes('a'), expectedVersion: null }]);
      await symlink(join(root, '.repa'), join(root, 'sneaky'));
      expect((await repaErrorOf(store.read('sneaky/identities.json'))).code).toBe('protected_path');
    });

    it('refuses when the target is swapped for an outside symlink between temp write and rename', async () => {
      const root = await folder({ 'doc.md': 'mine' });
      const outside = await folder({ 'victim.txt': 'victim' });
      const store = await ContentStore.open({
        root,
        hooks: {
          step: async (step) => {
            if (step !== 'temp-written') return;
            await unlink(join(root, 'doc.md'));
            await symlink(join(outside, 'victim.txt'), join(root, 'doc.md'));
          },
        },
      });
      const seen = await store.read('doc.md');
      const save = store.save([
        { target: 'doc.md', content: bytes('new'), expectedVersion: seen.version },
      ]);
      expect((await repaErrorOf(save)).code).toBe('path_outside_space');
      expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('victim');
      expect(await readdir(outside)).toEqual(['victim.txt']);
      expect((await readdir(root)).filter((name) => name.includes('repa-tmp'))).toEqual([]);
      expect(await readdir(join(root, '.repa/intents'))).toEqual([]);
    });

    it('refuses when a parent folder is swapped for an outside symlink between temp write and rename', async () => {
      const root = await folder({ 'docs/doc.md': 'mine' });
      const outside = await folder({ 'doc.md': 'victim' });
      const store = await ContentStore.open({
        root,
        hooks: {
          step: async (step) => {
            if (step !== 'temp-written') return;
            await rename(join(root, 'docs'), join(root, 'docs-moved'));
            await symlink(outside, join(root, 'docs'));
          },
        },
      });
      const seen = await store.read('docs/doc.md');
      const save = store.save([
        { target: 'docs/doc.md', content: bytes('new'), expectedVersion: seen.version },
      ]);
      expect((await repaErrorOf(save)).code).toBe('path_outside_space');
      expect(await readdir(outside)).toEqual(['doc.md']);
      expect(await readFile(join(outside, 'doc.md'), 'utf8')).toBe('victim');
      expect(await readFile(join(root, 'docs-moved/doc.md'), 'utf8')).toBe('mine');
    });
  });
});
