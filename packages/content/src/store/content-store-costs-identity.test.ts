import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import type { SaveStep } from '../save/index.js';
import { recordingFs } from '../test/recording-fs.js';
import { tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

const space = tempSpaces();

describe('ContentStore costs', () => {
  describe('identity assignment on read', () => {
    const log = (root: string) => readFile(join(root, '.repa/identities.log'), 'utf8');
    const entriesOf = (text: string) =>
      text
        .split('\n')
        .slice(1, -1)
        .map((line) => JSON.parse(line.slice(9)) as { identity: string; target: string });

    it('appends one line to the identity log and returns before its fsync: no rename, the index untouched', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const { fs, opened, synced, release } = recordingFs({ holdLog: true });
      const store = await ContentStore.open({ root, fs });
      // A new object makes the save write the index (durably).
      await store.save([{ target: 'c.md', content: bytes('C\n'), expectedVersion: null }]);
      const index = await readFile(join(root, '.repa/identities.json'), 'utf8');
      synced.length = 0;
      opened.length = 0;
      // The log's fsync is held back, and the reads return all the same.
      const a = await store.read('a.md');
      const b = await store.read('b.md');
      expect(synced, String(synced)).toEqual([]);
      expect(opened.filter((path) => path.includes('identities.json'))).toEqual([]);
      expect(await readFile(join(root, '.repa/identities.json'), 'utf8')).toBe(index);
      expect(entriesOf(await log(root))).toEqual([
        { identity: a.identity, target: 'a.md' },
        { identity: b.identity, target: 'b.md' },
      ]);
      const reopened = await ContentStore.open({ root, hooks: {} });
      expect((await reopened.read('a.md')).identity).toBe(a.identity);
      expect((await reopened.read('b.md')).identity).toBe(b.identity);
      release();
    });

    it('returns the first identity of a space before any fsync too (no index yet)', async () => {
      const root = await space({ 'a.md': 'a\n' });
      const { fs, synced, release } = recordingFs({ holdLog: true });
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      expect(synced, String(synced)).toEqual([]);
      expect(existsSync(join(root, '.repa/identities.json'))).toBe(false);
      const reopened = await ContentStore.open({ root, hooks: {} });
      expect((await reopened.read('a.md')).identity).toBe(a.identity);
      release();
    });

    it('reports the next save only once the logged identities are durable, and fsyncs them once', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const { fs, synced, release } = recordingFs({ holdLog: true });
      const store = await ContentStore.open({ root, fs });
      await store.read('a.md');
      const b = await store.read('b.md');
      let reported = false;
      const saving = store
        .save([{ target: 'b.md', content: bytes('B\n'), expectedVersion: b.version }])
        .then((receipts) => {
          reported = true;
          return receipts;
        });
      // The save writes its temp file meanwhile, but renames nothing and reports nothing yet.
      while (!reported && !(await readdir(root)).some((name) => name.includes('repa-tmp'))) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reported).toBe(false);
      expect(await readFile(join(root, 'b.md'), 'utf8')).toBe('b\n');
      release();
      const [saved] = await saving;
      expect(synced).toContain(join(root, '.repa/identities.log'));
      synced.length = 0;
      await store.save([
        { target: 'b.md', content: bytes('BB\n'), expectedVersion: saved?.version ?? null },
      ]);
      expect(synced.filter((path) => path.includes('identities'))).toEqual([]);
    });

    it("fsyncs another store's logged identity with its own next save", async () => {
      const root = await space({ 'a.md': 'a\n' });
      const first = await ContentStore.open({ root, hooks: {} });
      const a = await first.read('a.md');
      const { fs, synced } = recordingFs();
      const second = await ContentStore.open({ root, fs });
      const seen = await second.read('a.md');
      expect(seen.identity).toBe(a.identity);
      await second.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: seen.version }]);
      expect(synced).toContain(join(root, '.repa/identities.log'));
    });

    it('folds the log into the index when a save writes the index, and starts it anew', async () => {
      const root = await space({ 'a.md': 'a\n' });
      const store = await ContentStore.open({ root, hooks: {} });
      const a = await store.read('a.md');
      const [created] = await store.save([
        { target: 'n.md', content: bytes('n\n'), expectedVersion: null },
      ]);
      const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8'));
      expect(index.objects).toEqual({ [a.identity]: 'a.md', [created?.identity ?? '']: 'n.md' });
      expect(await log(root)).toBe(`repa.identities-log/1 ${index.log}\n`);
    });

    it('ignores a log the index does not name (already folded in), and starts it anew', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const store = await ContentStore.open({ root, hooks: {} });
      const a = await store.read('a.md');
      await store.save([{ target: 'n.md', content: bytes('n\n'), expectedVersion: null }]);
      // A crash between the index write and the log's restart: the old log, with an old id.
      const stale = `repa.identities-log/1 ${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}\n`;
      const line = JSON.stringify({
        identity: 'repa:document/00000000-0000-4000-8000-000000000001',
        target: 'b.md',
      });
      const { crc32 } = await import('node:zlib');
      await writeFile(
        join(root, '.repa/identities.log'),
        `${stale}${crc32(line).toString(16).padStart(8, '0')} ${line}\n`,
      );
      const reopened = await ContentStore.open({ root, hooks: {} });
      expect((await reopened.read('a.md')).identity).toBe(a.identity);
      const b = await reopened.read('b.md');
      expect(b.identity).not.toBe('repa:document/00000000-0000-4000-8000-000000000001');
      const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8'));
      expect(entriesOf(await log(root))).toEqual([{ identity: b.identity, target: 'b.md' }]);
      expect((await log(root)).startsWith(`repa.identities-log/1 ${index.log}\n`)).toBe(true);
    });

    it('keeps the lines before one a power loss cut short, and cuts it off before the next', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const first = await ContentStore.open({ root, hooks: {} });
      const a = await first.read('a.md');
      await writeFile(join(root, '.repa/identities.log'), `${await log(root)}1234abcd {"identi`);
      const second = await ContentStore.open({ root, hooks: {} });
      expect((await second.read('a.md')).identity).toBe(a.identity);
      const b = await second.read('b.md');
      expect(entriesOf(await log(root))).toEqual([
        { identity: a.identity, target: 'a.md' },
        { identity: b.identity, target: 'b.md' },
      ]);
      const third = await ContentStore.open({ root, hooks: {} });
      expect((await third.read('b.md')).identity).toBe(b.identity);
    });

    it('refuses to open a space whose identity log is a symlink (data_corrupt), writing nothing through it', async () => {
      const root = await space({ 'a.md': 'a\n', 'elsewhere.txt': 'keep\n' });
      await mkdir(join(root, '.repa'));
      await symlink(join(root, 'elsewhere.txt'), join(root, '.repa/identities.log'));
      expect((await repaErrorOf(ContentStore.open({ root, hooks: {} }))).code).toBe('data_corrupt');
      expect(await readFile(join(root, 'elsewhere.txt'), 'utf8')).toBe('keep\n');
    });

    it("reads an earlier version's durable copy when the index is torn", async () => {
      const root = await space({ 'a.md': 'a\n' });
      const first = await ContentStore.open({ root, hooks: {} });
      const a = await first.read('a.md');
      await first.save([{ target: 'n.md', content: bytes('n\n'), expectedVersion: null }]);
      // What an earlier version left after a power loss: a torn index and its durable copy.
      const index = await readFile(join(root, '.repa/identities.json'), 'utf8');
      await writeFile(join(root, '.repa/identities.durable.json'), index);
      await writeFile(join(root, '.repa/identities.json'), '{"format": "repa.ident');
      const second = await ContentStore.open({ root, hooks: {} });
      expect((await second.read('a.md')).identity).toBe(a.identity);
    });

    it('still refuses a damaged index with data_corrupt when there is no durable copy', async () => {
      const root = await space({ 'a.md': 'a\n', '.repa/identities.json': '{ broken' });
      expect((await repaErrorOf(ContentStore.open({ root, hooks: {} }))).code).toBe('data_corrupt');
    });
  });

  describe('the identity log when writes fail', () => {
    it('cuts a line a failed write left half-written, so later identities still count', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n' });
      let failing = true;
      const fs: FsLayer = {
        ...nodeFsLayer,
        write: async (handle, data, position) => {
          if (failing && Buffer.from(data).toString().includes('"target":"b.md"')) {
            failing = false;
            await nodeFsLayer.write(handle, Buffer.from(data).subarray(0, 20), position);
            throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
          }
          await nodeFsLayer.write(handle, data, position);
        },
      };
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('a.md');
      expect((await repaErrorOf(store.read('b.md'))).code).toBe('io_error');
      const c = await store.read('c.md');
      const b = await store.read('b.md');
      // A kill -9 now: another process reads the log.
      const reopened = await ContentStore.open({ root, hooks: {} });
      expect((await reopened.read('a.md')).identity).toBe(a.identity);
      expect((await reopened.read('b.md')).identity).toBe(b.identity);
      expect((await reopened.read('c.md')).identity).toBe(c.identity);
    });

    it('logs to the new log when an index write failed after its rename', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      let armed = false;
      const fs: FsLayer = {
        ...nodeFsLayer,
        syncDir: async (path) => {
          if (armed && path === join(root, '.repa')) {
            armed = false;
            throw Object.assign(new Error('EIO'), { code: 'EIO' });
          }
          await nodeFsLayer.syncDir(path);
        },
      };
      const hooks = {
        step: (step: SaveStep) => {
          if (step === 'dirs-synced') armed = true;
        },
      };
      const store = await ContentStore.open({ root, fs, hooks });
      const a = await store.read('a.md');
      await store.save([{ target: 'n.md', content: bytes('n\n'), expectedVersion: null }]);
      expect(armed).toBe(false);
      const b = await store.read('b.md');
      const reopened = await ContentStore.open({ root, hooks: {} });
      expect((await reopened.read('a.md')).identity).toBe(a.identity);
      expect((await reopened.read('b.md')).identity).toBe(b.identity);
    });

    it('fsyncs .repa/ too when the log it found was created by another store', async () => {
      const root = await space({ 'a.md': 'a\n' });
      const first = await ContentStore.open({ root, hooks: {} });
      await first.read('a.md');
      const synced: string[] = [];
      const fs: FsLayer = {
        ...nodeFsLayer,
        syncDir: async (path) => {
          synced.push(path);
          await nodeFsLayer.syncDir(path);
        },
      };
      const second = await ContentStore.open({ root, fs });
      const seen = await second.read('a.md');
      await second.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: seen.version }]);
      expect(synced).toContain(join(root, '.repa'));
    });

    it("writes the index durably when the log's fsync failed, never trusting a second fsync", async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const paths = new Map<number, string>();
      let failures = 0;
      const fs: FsLayer = {
        ...nodeFsLayer,
        open: async (path, flags, mode) => {
          const handle = await nodeFsLayer.open(path, flags, mode);
          paths.set(handle.fd, path);
          return handle;
        },
        sync: async (handle) => {
          // Linux reports a writeback error to one fsync; a later one of the same file succeeds.
          if (failures === 0 && paths.get(handle.fd)?.endsWith('identities.log')) {
            failures += 1;
            throw Object.assign(new Error('EIO'), { code: 'EIO' });
          }
          await nodeFsLayer.sync(handle);
        },
      };
      const store = await ContentStore.open({ root, fs });
      const b = await store.read('b.md');
      await store.save([{ target: 'b.md', content: bytes('B\n'), expectedVersion: b.version }]);
      expect(failures).toBe(1);
      const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8'));
      expect(index.objects).toEqual({ [b.identity]: 'b.md' });
    });

    it('saves after the log was removed by hand', async () => {
      const root = await space({ 'a.md': 'a\n' });
      const store = await ContentStore.open({ root, hooks: {} });
      const a = await store.read('a.md');
      await rm(join(root, '.repa/identities.log'));
      const [saved] = await store.save([
        { target: 'a.md', content: bytes('A\n'), expectedVersion: a.version },
      ]);
      expect(saved?.identity).toBe(a.identity);
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('A\n');
    });
  });
});
