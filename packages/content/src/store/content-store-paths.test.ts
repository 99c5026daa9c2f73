import { readdir, readFile, rename, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { readTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const folder = tempSpaces();

/** The space's whole tree, `.repa/` included, to prove nothing was created. */
const everything = async (root: string) =>
  Object.keys(await readTree(root, { withRepa: true }))
    .filter((path) => path !== '.repa/.gitignore') // What a new .repa/ holds from the start.
    .sort();

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
