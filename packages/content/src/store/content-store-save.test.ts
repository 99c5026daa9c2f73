import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { readTextTree, readTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

const bytes = (text: string) => Buffer.from(text, 'utf8');

const space = tempSpaces();

describe('ContentStore', () => {
  describe('save', () => {
    it('keeps the space lock between saves while nobody waits, and lets a waiting store have it', async () => {
      const root = await space({ 'a.md': 'one\n', 'b.md': 'b\n' });
      const store = await ContentStore.open({ root, hooks: {} });
      const lockFolder = join(root, '.repa/content.lock');
      const held = () =>
        stat(lockFolder).then(
          (stats) => `${stats.ino}`,
          () => undefined,
        );
      let version = (await store.read('a.md')).version;
      const taken = new Set<string | undefined>();
      for (const text of ['two\n', 'three\n']) {
        const [receipt] = await store.save([
          { target: 'a.md', content: bytes(text), expectedVersion: version },
        ]);
        version = receipt?.version ?? '';
        taken.add(await held());
        // Idle longer than several checks: with nobody waiting the lock stays.
        await new Promise((done) => setTimeout(done, 150));
        taken.add(await held());
      }
      // One lock folder throughout: the saves took it once.
      expect(taken.size).toBe(1);
      expect([...taken][0]).not.toBeUndefined();
      // Another store (as another process would) waits, marks that it waits, and gets the lock.
      const other = await ContentStore.open({ root, hooks: {} });
      const b = await other.read('b.md');
      await other.save([{ target: 'b.md', content: bytes('B\n'), expectedVersion: b.version }]);
      expect((await other.read('a.md')).version).toBe(version);
      expect(existsSync(join(root, '.repa/content.wanted'))).toBe(false);
    });

    it('lets a waiting store in between a busy store’s saves instead of keeping the lock for itself', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const busy = await ContentStore.open({ root, hooks: {} });
      const other = await ContentStore.open({ root, hooks: {} });
      const b = await other.read('b.md');
      // The busy store's first read takes the lock (it waits for the other store to let go).
      let version = (await busy.read('a.md')).version;
      let otherDone = false;
      const otherSave = other
        .save([{ target: 'b.md', content: bytes('B\n'), expectedVersion: b.version }])
        .then(() => {
          otherDone = true;
        });
      // The busy store saves back to back (closer together than its 25 ms checks).
      let saves = 0;
      while (!otherDone && saves < 400) {
        const [receipt] = await busy.save([
          { target: 'a.md', content: bytes(`a${saves}\n`), expectedVersion: version },
        ]);
        version = receipt?.version ?? '';
        saves += 1;
      }
      await otherSave;
      expect(await readFile(join(root, 'b.md'), 'utf8')).toBe('B\n');
      // It got in while the busy store was still saving, not after it stopped.
      expect(saves).toBeLessThan(400);
    });

    it('creates a new file with its folders and returns a receipt', async () => {
      const root = await space();
      const store = await ContentStore.open({ root });
      const [receipt] = await store.save(
        [{ target: 'a/b/new.md', content: bytes('new\n'), expectedVersion: null }],
        { operationId: 'op-1' },
      );
      expect(receipt).toMatchObject({
        operationId: 'op-1',
        target: 'a/b/new.md',
        previousVersion: null,
        version: sha('new\n'),
        bytes: 4,
      });
      expect(await readTextTree(root)).toEqual({ 'a/b/new.md': 'new\n' });
      expect((await store.read(receipt?.identity as string)).target).toBe('a/b/new.md');
      expect(await readdir(join(root, '.repa/intents'))).toEqual([]);
    });

    it('refuses to replace an existing file the caller never observed (read_required)', async () => {
      const root = await space({ 'a.md': 'mine\n' });
      const store = await ContentStore.open({ root });
      const error = await repaErrorOf(
        store.save([{ target: 'a.md', content: bytes('x'), expectedVersion: null }]),
      );
      expect(error.code).toBe('read_required');
      expect(error.details).toMatchObject({ currentVersion: sha('mine\n'), excerpt: 'mine\n' });
      expect(await readTextTree(root)).toEqual({ 'a.md': 'mine\n' });
    });

    it('refuses a stale version and carries the current version and an excerpt', async () => {
      const root = await space({ 'a.md': 'one\n' });
      const store = await ContentStore.open({ root });
      const seen = await store.read('a.md');
      await writeFile(join(root, 'a.md'), 'two\n');
      const error = await repaErrorOf(
        store.save([{ target: 'a.md', content: bytes('three\n'), expectedVersion: seen.version }]),
      );
      expect(error.code).toBe('stale_version');
      expect(error.details).toMatchObject({ currentVersion: sha('two\n'), excerpt: 'two\n' });
      expect(await readTextTree(root)).toEqual({ 'a.md': 'two\n' });
    });

    it('preserves the file mode of the file it replaces', async () => {
      const root = await space({ 'run.sh': 'echo 1\n' });
      await chmod(join(root, 'run.sh'), 0o750);
      const store = await ContentStore.open({ root });
      const seen = await store.read('run.sh');
      await store.save([
        { target: 'run.sh', content: bytes('echo 2\n'), expectedVersion: seen.version },
      ]);
      expect((await stat(join(root, 'run.sh'))).mode & 0o777).toBe(0o750);
      expect(await readFile(join(root, 'run.sh'), 'utf8')).toBe('echo 2\n');
    });

    it('moves an identity with its object', async () => {
      const root = await space({ 'old.md': 'text\n' });
      const store = await ContentStore.open({ root });
      const seen = await store.read('old.md');
      const receipts = await store.save([
        { target: 'old.md', content: null, expectedVersion: seen.version },
        {
          target: 'new/place.md',
          content: bytes('text 2\n'),
          expectedVersion: null,
          identityFrom: 'old.md',
        },
      ]);
      expect(
        receipts.map((receipt) => [receipt.target, receipt.identity, receipt.version]),
      ).toEqual([
        ['old.md', seen.identity, null],
        ['new/place.md', seen.identity, sha('text 2\n')],
      ]);
      expect((await store.read(seen.identity)).target).toBe('new/place.md');
      const reopened = await ContentStore.open({ root });
      expect((await reopened.locate(seen.identity)).target).toBe('new/place.md');
      expect(await readTextTree(root)).toEqual({ 'new/place.md': 'text 2\n' });
    });

    it('changes nothing when one change of a multi-file save is stale', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const store = await ContentStore.open({ root });
      const a = await store.read('a.md');
      await store.read('b.md');
      const error = await repaErrorOf(
        store.save([
          { target: 'a.md', content: bytes('A\n'), expectedVersion: a.version },
          { target: 'c/new.md', content: bytes('c\n'), expectedVersion: null },
          { target: 'b.md', content: bytes('B\n'), expectedVersion: sha('something else') },
        ]),
      );
      expect(error.code).toBe('stale_version');
      expect(await readTextTree(root)).toEqual({ 'a.md': 'a\n', 'b.md': 'b\n' });
      expect(await readTree(root, { withRepa: true })).not.toHaveProperty('c');
    });

    it('checks cancel before starting and writes nothing', async () => {
      const root = await space();
      const store = await ContentStore.open({ root });
      const controller = new AbortController();
      controller.abort();
      const error = await repaErrorOf(
        store.save([{ target: 'a.md', content: bytes('x'), expectedVersion: null }], {
          signal: controller.signal,
        }),
      );
      expect(error.code).toBe('cancelled');
      expect(await readTextTree(root)).toEqual({});
    });

    it('finishes a save whose cancel arrives after it started', async () => {
      const root = await space();
      const controller = new AbortController();
      const store = await ContentStore.open({
        root,
        hooks: { step: (step) => void (step === 'intent-written' && controller.abort()) },
      });
      const receipts = await store.save(
        [{ target: 'a.md', content: bytes('x'), expectedVersion: null }],
        {
          signal: controller.signal,
        },
      );
      expect(receipts).toHaveLength(1);
      expect(await readTextTree(root)).toEqual({ 'a.md': 'x' });
    });

    it('deletes an observed file', async () => {
      const root = await space({ 'a.md': 'a', 'keep.md': 'k' });
      const store = await ContentStore.open({ root });
      const a = await store.read('a.md');
      const [receipt] = await store.save([
        { target: 'a.md', content: null, expectedVersion: a.version },
      ]);
      expect(receipt).toMatchObject({ version: null, previousVersion: a.version, bytes: 0 });
      expect(await readTextTree(root)).toEqual({ 'keep.md': 'k' });
      expect((await repaErrorOf(store.read(a.identity))).code).toBe('not_found');
    });

    it('refuses to change the same object twice in one save and an empty save', async () => {
      const store = await ContentStore.open({ root: await space() });
      const twice = store.save([
        { target: 'a.md', content: bytes('1'), expectedVersion: null },
        { target: './a.md', content: bytes('2'), expectedVersion: null },
      ]);
      expect((await repaErrorOf(twice)).code).toBe('invalid_request');
      expect((await repaErrorOf(store.save([]))).code).toBe('invalid_request');
      expect((await repaErrorOf(store.save([], { operationId: '../x' }))).code).toBe(
        'invalid_request',
      );
    });
    describe('identity index writes', () => {
      /** The real filesystem, recording each rename's target name and failing those in `fail`. */
      const recordingFs = (fail: Set<number> = new Set()) => {
        const renamed: string[] = [];
        const fs: FsLayer = {
          ...nodeFsLayer,
          rename: async (from, to) => {
            renamed.push(basename(to));
            if (fail.has(renamed.length)) throw Object.assign(new Error('EIO'), { code: 'EIO' });
            await nodeFsLayer.rename(from, to);
          },
        };
        return { fs, renamed };
      };

      it('rewrites the index for a new object or a delete, not for an overwrite', async () => {
        const root = await space({ 'a.md': 'one\n', 'c.md': 'c\n' });
        const { fs, renamed } = recordingFs();
        const store = await ContentStore.open({ root, fs });
        const a = await store.read('a.md');
        const c = await store.read('c.md');
        renamed.length = 0;
        const [first] = await store.save([
          { target: 'a.md', content: bytes('two\n'), expectedVersion: a.version },
        ]);
        await store.save([
          { target: 'a.md', content: bytes('three\n'), expectedVersion: first?.version ?? null },
        ]);
        expect(renamed.filter((name) => name === 'identities.json')).toEqual([]);
        await store.save([{ target: 'b.md', content: bytes('b\n'), expectedVersion: null }]);
        expect(renamed.filter((name) => name === 'identities.json')).toHaveLength(1);
        await store.save([{ target: 'c.md', content: null, expectedVersion: c.version }]);
        expect(renamed.filter((name) => name === 'identities.json')).toHaveLength(2);
        const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8')) as {
          objects: Record<string, string>;
        };
        expect(Object.values(index.objects).sort()).toEqual(['a.md', 'b.md']);
      });

      it('gives the read after a failed log write an identity that survives', async () => {
        const root = await space({ 'a.md': 'one\n' });
        let failing = true;
        const fs: FsLayer = {
          ...nodeFsLayer,
          write: async (handle, data, position) => {
            // The first read's identity line (the log's header is written first, without a position).
            if (failing && data.toString().includes('"target":"a.md"')) {
              failing = false;
              throw Object.assign(new Error('EIO'), { code: 'EIO' });
            }
            await nodeFsLayer.write(handle, data, position);
          },
        };
        const store = await ContentStore.open({ root, fs });
        await expect(store.read('a.md')).rejects.toThrow();
        expect(failing).toBe(false);
        const a = await store.read('a.md');
        await store.save([{ target: 'a.md', content: bytes('two\n'), expectedVersion: a.version }]);
        const reopened = await ContentStore.open({ root });
        expect((await reopened.read('a.md')).identity).toBe(a.identity);
      });
    });
  });
});
