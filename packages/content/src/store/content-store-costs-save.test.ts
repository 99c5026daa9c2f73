import { existsSync } from 'node:fs';
import { chmod, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import type { SaveStep } from '../save/index.js';
import { recordingFs, settle } from '../test/recording-fs.js';
import { tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

const space = tempSpaces();

describe('ContentStore costs', () => {
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

    it('refuses with stale_version a same-size change made between planning and the rename, leaving no kept bytes or record', async () => {
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
      // The replaced bytes were linked while the temp file was fsynced: the refusal removed them.
      expect(existsSync(join(root, '.repa/history/bytes', a.version))).toBe(false);
      expect((await store.history.all()).records).toEqual([]);
    });
  });
});
