import { createHash } from 'node:crypto';
import { rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { recordingFs } from '../test/recording-fs.js';
import { removeAll, tempSpace } from '../test/temp-space.js';
import { ContentObserver } from './content-observer.js';

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');
const dirs: string[] = [];
afterEach(() => removeAll(dirs));

async function setUp(
  files: Record<string, string | Uint8Array>,
  options: ConstructorParameters<typeof ContentObserver>[1] = {},
) {
  const root = await tempSpace(files);
  dirs.push(root);
  const { fs, opened } = recordingFs();
  const store = await ContentStore.open({ root, fs });
  const observer = new ContentObserver(store, options);
  const readAll = async (partial = false) => {
    for (const path of Object.keys(files)) observer.recordRead(await store.read(path), { partial });
  };
  return { root, store, observer, opened, readAll };
}

describe('ContentObserver', () => {
  describe('checkChanges', () => {
    it('reports a change made elsewhere once, then moves the baseline', async () => {
      const { root, observer, readAll } = await setUp({ 'a.md': 'one\n', 'b.md': 'b\n' });
      await readAll();
      await writeFile(join(root, 'a.md'), 'two\n');
      expect(await observer.checkChanges('notice')).toEqual({
        changes: [
          {
            target: 'a.md',
            identity: expect.stringMatching(/^repa:document\//),
            kind: 'modified',
            previousVersion: sha('one\n'),
            version: sha('two\n'),
            form: 'notice',
            bytes: 4,
          },
        ],
      });
      expect(await observer.checkChanges('notice')).toEqual({ changes: [] });
    });

    it('gives a bounded unified diff in diff mode when the old text is known', async () => {
      const { root, observer, readAll } = await setUp({ 'a.md': 'one\ntwo\nthree\n' });
      await readAll();
      await writeFile(join(root, 'a.md'), 'one\n2\nthree\n');
      const [change] = (await observer.checkChanges('diff')).changes;
      expect(change).toMatchObject({ form: 'diff', kind: 'modified' });
      expect(change?.diff).toContain(
        '--- a.md\n+++ a.md\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
      );
      // The model saw that diff, so the next change diffs against the new text.
      await writeFile(join(root, 'a.md'), 'one\n2\n3\n');
      expect((await observer.checkChanges('diff')).changes[0]?.diff).toContain('-three\n+3\n');
    });

    it('falls back to a location hint when a diff cannot be trusted or is too large', async () => {
      const partial = await setUp({ 'a.md': 'a\n' });
      await partial.readAll(true);
      await writeFile(join(partial.root, 'a.md'), 'b\n');
      expect((await partial.observer.checkChanges('diff')).changes[0]).toMatchObject({
        form: 'location',
        hint: expect.stringContaining('Only part of the file was read'),
      });

      const binary = await setUp({ 'a.bin': 'text\n' });
      await binary.readAll();
      await writeFile(join(binary.root, 'a.bin'), Buffer.from([0, 1, 2]));
      expect((await binary.observer.checkChanges('diff')).changes[0]).toMatchObject({
        form: 'location',
        hint: expect.stringContaining('binary'),
      });

      const large = await setUp({ 'a.md': 'x\n' }, { maxTextBytes: 8 });
      await large.readAll();
      await writeFile(join(large.root, 'a.md'), 'much longer text\n');
      expect((await large.observer.checkChanges('diff')).changes[0]?.hint).toContain(
        'too large for a diff',
      );

      const wide = await setUp({ 'a.md': 'x\n' }, { maxDiffChars: 20 });
      await wide.readAll();
      await writeFile(join(wide.root, 'a.md'), 'y\n');
      expect((await wide.observer.checkChanges('diff')).changes[0]?.hint).toContain(
        'change is too large',
      );

      const unknown = await setUp({ 'a.md': 'x'.repeat(20) }, { maxTextBytes: 10 });
      await unknown.readAll();
      await writeFile(join(unknown.root, 'a.md'), 'y');
      expect((await unknown.observer.checkChanges('diff')).changes[0]?.hint).toContain(
        'previous text is not known',
      );
    });

    it('gives a location hint for a rewrite of a text too different to diff, without holding the loop', async () => {
      const lines = (prefix: string) =>
        Array.from({ length: 16_000 }, (_, index) => `${prefix}${index % 10}`).join('\n');
      const { root, observer, readAll } = await setUp({ 'a.md': lines('a') });
      await readAll();
      await writeFile(join(root, 'a.md'), lines('b'));
      const { changes } = await observer.checkChanges('diff');
      expect(changes).toMatchObject([
        {
          target: 'a.md',
          form: 'location',
          hint: 'The change is too large for a diff (too many changed lines). Read a.md again to see its current content.',
        },
      ]);
    }, 10_000); // The unbounded diff (the old code) took over a minute: it fails by this timeout.

    it('sees a same-size change made right after the read (coarse timestamps)', async () => {
      const { root, observer, readAll } = await setUp({ 'a.md': 'aaaa' });
      await readAll();
      await writeFile(join(root, 'a.md'), 'bbbb');
      expect((await observer.checkChanges('notice')).changes).toHaveLength(1);
    });

    it('reports a deleted file as a notice and forgets it', async () => {
      const { root, observer, readAll } = await setUp({ 'a.md': 'a' });
      await readAll();
      await rm(join(root, 'a.md'));
      expect((await observer.checkChanges('diff')).changes).toMatchObject([
        { target: 'a.md', kind: 'deleted', version: null, form: 'notice' },
      ]);
      expect(observer.list()).toEqual([]);
    });

    it('reports a file replaced by a symlink leading out of the space as deleted', async () => {
      const { root, observer, readAll } = await setUp({ 'a.md': 'a' });
      const outside = await tempSpace({ 'x.md': 'secret' });
      dirs.push(outside);
      await readAll();
      await rm(join(root, 'a.md'));
      await symlink(join(outside, 'x.md'), join(root, 'a.md'));
      expect((await observer.checkChanges('diff')).changes).toMatchObject([
        { target: 'a.md', kind: 'deleted' },
      ]);
    });

    it('reports nothing and keeps the baseline when off', async () => {
      const { root, observer, readAll } = await setUp({ 'a.md': 'a' });
      await readAll();
      await writeFile(join(root, 'a.md'), 'b');
      expect(await observer.checkChanges('off')).toEqual({ changes: [] });
      expect((await observer.checkChanges('notice')).changes).toHaveLength(1);
    });

    it('names the changed file without size or diff on demand', async () => {
      const { root, observer, readAll } = await setUp({ 'a.md': 'a\n' });
      await readAll();
      await writeFile(join(root, 'a.md'), 'b\n');
      const { changes } = await observer.checkChanges('on-demand');
      expect(changes).toEqual([
        {
          target: 'a.md',
          identity: expect.any(String),
          kind: 'modified',
          previousVersion: sha('a\n'),
          version: sha('b\n'),
          form: 'notice',
        },
      ]);
      expect(await observer.checkChanges('on-demand')).toEqual({ changes: [] });
    });

    it('only looks at observed files and hashes only those whose stat changed', async () => {
      const { root, observer, readAll, opened } = await setUp({ 'a.md': 'a', 'b.md': 'b' });
      // Settled files (changed more than 2 s ago) are trusted by their stat alone.
      const anHourAgo = new Date(Date.now() - 3_600_000);
      for (const name of ['a.md', 'b.md']) await utimes(join(root, name), anHourAgo, anHourAgo);
      await readAll();
      await writeFile(join(root, 'unread.md'), 'not observed');
      opened.length = 0;
      expect(await observer.checkChanges('diff')).toEqual({ changes: [] });
      expect(opened).toEqual([]);
      await writeFile(join(root, 'b.md'), 'B');
      await observer.checkChanges('diff');
      expect(opened).toEqual([join(root, 'b.md')]);
    });

    it('trusts the stat of a file changed before the probed timestamp window, and hashes a racy one', async () => {
      const { root, store, observer, opened } = await setUp({ 'a.md': 'a', 'b.md': 'b' });
      observer.recordRead(await store.read('b.md'), { partial: false });
      // This file system's timestamps move in steps far below the 2 s fallback (ext4, tmpfs, btrfs).
      expect(store.timestampWindowNs).toBeLessThan(1_000_000_000n);
      // a.md changed 1.5 s ago: settled for the probed window, racy for the old fixed 2 s.
      // b.md's mtime is ahead of the clock: racy for any window.
      const before = new Date(Date.now() - 1_500);
      const ahead = new Date(Date.now() + 3_600_000);
      await utimes(join(root, 'a.md'), before, before);
      await utimes(join(root, 'b.md'), ahead, ahead);
      observer.recordRead(await store.read('a.md'), { partial: false });
      observer.recordRead(await store.read('b.md'), { partial: false });
      opened.length = 0;
      expect(await observer.checkChanges('notice')).toEqual({ changes: [] });
      expect(opened).toEqual([join(root, 'b.md')]);
      // Once b.md's mtime is settled too, one more hash (its stat moved) and then its stat alone.
      await utimes(join(root, 'b.md'), before, before);
      expect(await observer.checkChanges('notice')).toEqual({ changes: [] });
      opened.length = 0;
      await observer.checkChanges('notice');
      expect(opened).toEqual([]);
    });

    it('does not report the agent’s own saves (baseline from the receipt)', async () => {
      const { store, observer, readAll } = await setUp({ 'a.md': 'a\n' });
      await readAll();
      const seen = observer.get('a.md');
      const receipts = await store.save([
        { target: 'a.md', content: Buffer.from('b\n'), expectedVersion: seen?.version ?? null },
      ]);
      observer.recordSave(receipts, { contents: new Map([['a.md', Buffer.from('b\n')]]) });
      expect(observer.get('a.md')).toMatchObject({ version: sha('b\n'), text: 'b\n' });
      expect(await observer.checkChanges('diff')).toEqual({ changes: [] });
      expect(await observer.checkChanges('diff')).toEqual({ changes: [] });
    });
  });

  describe('after a save', () => {
    it('reports a same-size write made right after its own save', async () => {
      const { root, store, observer, readAll } = await setUp({ 'a.md': 'a\n' });
      await readAll();
      const receipts = await store.save([
        { target: 'a.md', content: Buffer.from('b\n'), expectedVersion: sha('a\n') },
      ]);
      observer.recordSave(receipts, { contents: new Map([['a.md', Buffer.from('b\n')]]) });
      // In place, same size, within the same timestamp tick as the save: the stat key may not move.
      await writeFile(join(root, 'a.md'), 'c\n');
      expect(await observer.checkChanges('notice')).toMatchObject({
        changes: [{ target: 'a.md', kind: 'modified', version: sha('c\n') }],
      });
    });
  });

  describe('checkChangesByCommand', () => {
    it('reports what a command changed or deleted and forgets those baselines, keeping the others', async () => {
      const { root, observer, readAll } = await setUp({
        'a.md': 'one\n',
        'b.md': 'b\n',
        'c.md': 'c\n',
      });
      await readAll();
      await writeFile(join(root, 'a.md'), 'two\n');
      await rm(join(root, 'c.md'));
      const report = await observer.checkChangesByCommand();
      expect(report.changes.map((change) => [change.target, change.kind])).toEqual([
        ['a.md', 'modified'],
        ['c.md', 'deleted'],
      ]);
      expect(observer.get('a.md')).toBeUndefined();
      expect(observer.get('c.md')).toBeUndefined();
      expect(observer.get('b.md')?.version).toBe(sha('b\n'));
      expect(await observer.checkChanges('notice')).toEqual({ changes: [] });
    });
  });
});
