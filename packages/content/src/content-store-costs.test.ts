import { existsSync } from 'node:fs';
import { chmod, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentStore } from './content-store.js';
import type { SaveStep } from './save-committer.js';
import { removeAll, repaErrorOf, tempSpace } from './test/temp-space.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const dirs: string[] = [];
afterEach(() => removeAll(dirs));

/** The real file system, recording the paths opened and every fsync of a file (by path). */
function recordingFs() {
  const opened: string[] = [];
  const synced: string[] = [];
  const paths = new Map<number, string>();
  const fs: FsLayer = {
    ...nodeFsLayer,
    open: async (path, flags, mode) => {
      opened.push(path);
      const handle = await nodeFsLayer.open(path, flags, mode);
      paths.set(handle.fd, path);
      return handle;
    },
    sync: async (handle) => {
      synced.push(paths.get(handle.fd) ?? '?');
      await nodeFsLayer.sync(handle);
    },
  };
  return { fs, opened, synced };
}

async function space(files: Record<string, string>): Promise<string> {
  const root = await tempSpace(files);
  dirs.push(root);
  return root;
}

/** Sets a file's times a minute into the past, as for any file not touched in the last seconds. */
async function settle(root: string, path: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await utimes(join(root, path), past, past);
}

describe('ContentStore costs', () => {
  describe('identity assignment on read', () => {
    it('fsyncs nothing once an index exists, and keeps a hard link of the durable index', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const { fs, synced } = recordingFs();
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      // The save makes the index durable.
      await store.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }]);
      const durable = await readFile(join(root, '.repa/identities.json'), 'utf8');
      synced.length = 0;
      const b = await store.read('b.md');
      expect(synced, String(synced)).toEqual([]);
      const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8'));
      expect(index.objects).toEqual({ [a.identity]: 'a.md', [b.identity]: 'b.md' });
      expect(await readFile(join(root, '.repa/identities.durable.json'), 'utf8')).toBe(durable);
    });

    it('fsyncs nothing for the first identity of a space either (an empty durable copy)', async () => {
      const root = await space({ 'a.md': 'a\n' });
      const { fs, synced } = recordingFs();
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      expect(synced, String(synced)).toEqual([]);
      expect(await readFile(join(root, '.repa/identities.durable.json'), 'utf8')).toBe('');
      // Torn by a power loss: the empty copy stands for "no index yet".
      await writeFile(join(root, '.repa/identities.json'), '{"form');
      const reopened = await ContentStore.open({ root, hooks: {} });
      const again = await reopened.read('a.md');
      expect(again.identity).not.toBe(a.identity);
    });

    it('makes the index durable with the next save and then drops the durable copy', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const { fs, synced } = recordingFs();
      const store = await ContentStore.open({ root, fs });
      await store.read('a.md');
      const b = await store.read('b.md');
      synced.length = 0;
      await store.save([{ target: 'b.md', content: bytes('B\n'), expectedVersion: b.version }]);
      expect(synced).toContain(join(root, '.repa/identities.json'));
      expect(existsSync(join(root, '.repa/identities.durable.json'))).toBe(false);
    });

    it('reads the durable copy when the index was torn after an unsynced write', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const first = await ContentStore.open({ root, hooks: {} });
      const a = await first.read('a.md');
      await first.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }]);
      const b = await first.read('b.md');
      // A power loss before the next save: the index file came back torn.
      await writeFile(join(root, '.repa/identities.json'), '{"format": "repa.ident');
      const second = await ContentStore.open({ root, hooks: {} });
      expect((await second.read('a.md')).identity).toBe(a.identity);
      const again = await second.read('b.md');
      expect(again.identity).not.toBe(b.identity);
      await second.save([
        { target: 'b.md', content: bytes('B\n'), expectedVersion: again.version },
      ]);
      const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8'));
      expect(index.objects).toEqual({ [a.identity]: 'a.md', [again.identity]: 'b.md' });
    });

    it('still refuses a damaged index with data_corrupt when there is no durable copy', async () => {
      const root = await space({ 'a.md': 'a\n', '.repa/identities.json': '{ broken' });
      expect((await repaErrorOf(ContentStore.open({ root, hooks: {} }))).code).toBe('data_corrupt');
    });
  });

  describe('the temp file', () => {
    it('gets the mode of the file it replaces without a chmod when the umask leaves it', async () => {
      const root = await space({ 'a.md': 'a\n' });
      // 0o600 survives every usual umask (022, 027, 077).
      await chmod(join(root, 'a.md'), 0o600);
      const chmods: number[] = [];
      const fs: FsLayer = {
        ...nodeFsLayer,
        chmod: async (handle, mode) => {
          chmods.push(mode);
          await nodeFsLayer.chmod(handle, mode);
        },
      };
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      await store.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }]);
      expect(chmods).toEqual([]);
      expect((await stat(join(root, 'a.md'))).mode & 0o777).toBe(0o600);
    });
  });

  describe('the plan and the re-check before the rename', () => {
    it('does not read the target at all when the read before the save had a settled stat key', async () => {
      const root = await space({ 'a.md': 'a\n' });
      await settle(root, 'a.md');
      const { fs, opened } = recordingFs();
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      opened.length = 0;
      await store.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }]);
      expect(opened.filter((path) => path === join(root, 'a.md'))).toHaveLength(0);
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('A\n');
    });

    it('reads the target once when a settled read is stale (changed since, same size)', async () => {
      const root = await space({ 'a.md': 'one\n' });
      await settle(root, 'a.md');
      const { fs, opened } = recordingFs();
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      // Another writer changes it after the read: a new mtime (and inode), the same size.
      await writeFile(join(root, 'a.md'), 'two\n');
      opened.length = 0;
      const error = await repaErrorOf(
        store.save([{ target: 'a.md', content: bytes('new\n'), expectedVersion: a.version }]),
      );
      expect(error.code).toBe('stale_version');
      expect(error.details?.excerpt).toContain('two');
      expect(opened.filter((path) => path === join(root, 'a.md'))).toHaveLength(1);
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('two\n');
    });

    it('reads the target again when its mtime is too recent to trust', async () => {
      const root = await space({ 'a.md': 'a\n' });
      const { fs, opened } = recordingFs();
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      // An mtime not older than the window (here ahead of the clock, so however slow the machine):
      // its stat key cannot tell a same-size change within the same tick.
      const ahead = new Date(Date.now() + 60_000);
      await utimes(join(root, 'a.md'), ahead, ahead);
      opened.length = 0;
      await store.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }]);
      expect(opened.filter((path) => path === join(root, 'a.md'))).toHaveLength(2);
    });

    it('refuses with stale_version a same-size change made between planning and the rename', async () => {
      const root = await space({ 'a.md': 'one\n' });
      await settle(root, 'a.md');
      let armed = false;
      const hooks = {
        step: async (step: SaveStep) => {
          if (armed && step === 'temp-written') await writeFile(join(root, 'a.md'), 'two\n');
        },
      };
      const store = await ContentStore.open({ root, hooks });
      const a = await store.read('a.md');
      armed = true;
      const error = await repaErrorOf(
        store.save([{ target: 'a.md', content: bytes('new\n'), expectedVersion: a.version }]),
      );
      expect(error.code).toBe('stale_version');
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('two\n');
    });
  });
});
