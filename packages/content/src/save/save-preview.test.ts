// Spec R37: a save that waits for the learner shows the exact diff and writes nothing until approved.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RepaError } from '@repa/protocol';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { tempSpaces } from '../test/temp-space.js';
import type { SavePreview } from './save-preview.js';

const space = tempSpaces();
const bytes = (text: string) => Buffer.from(text, 'utf8');

async function opened() {
  const root = await space({ 'a.md': 'one\ntwo\n', 'b.md': 'bee\n' });
  const store = await ContentStore.open({ root });
  const a = await store.read('a.md');
  const b = await store.read('b.md');
  return { root, store, a, b };
}

describe('ContentStore.save with approve', () => {
  it('shows the diff of every file while nothing is written, then writes what was shown', async () => {
    const { root, store, a, b } = await opened();
    let shown: SavePreview | undefined;
    let onDisk: string[] = [];
    const receipts = await store.save(
      [
        { target: 'a.md', content: bytes('one\n2\n'), expectedVersion: a.version },
        { target: 'c.md', content: bytes('new\n'), expectedVersion: null },
        { target: 'b.md', content: null, expectedVersion: b.version },
      ],
      {
        approve: async (preview) => {
          shown = preview;
          onDisk = await Promise.all(
            ['a.md', 'b.md'].map((name) => readFile(join(root, name), 'utf8')),
          );
        },
      },
    );
    expect(onDisk).toEqual(['one\ntwo\n', 'bee\n']);
    expect(shown?.targets).toEqual(['a.md', 'c.md', 'b.md']);
    expect(shown?.diffs.map((diff) => [diff.target, diff.added, diff.removed])).toEqual([
      ['a.md', 1, 1],
      ['c.md', 1, 0],
      ['b.md', 0, 1],
    ]);
    expect(shown?.diffs[0]?.diff).toContain('-two\n+2\n');
    expect(receipts.map((receipt) => receipt.target)).toEqual(['a.md', 'c.md', 'b.md']);
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('one\n2\n');
  });

  it('writes nothing when approve throws', async () => {
    const { root, store, a } = await opened();
    const refused = await repaErrorOf(
      store.save([{ target: 'a.md', content: bytes('gone\n'), expectedVersion: a.version }], {
        approve: async () => {
          throw new RepaError('edit_refused', 'No.');
        },
      }),
    );
    expect(refused.code).toBe('edit_refused');
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('one\ntwo\n');
  });

  it('fails stale_version when the file changes between the diff shown and the approval', async () => {
    const { root, store, a } = await opened();
    const failed = await repaErrorOf(
      store.save([{ target: 'a.md', content: bytes('mine\n'), expectedVersion: a.version }], {
        approve: () => writeFile(join(root, 'a.md'), 'theirs\n'),
      }),
    );
    expect(failed.code).toBe('stale_version');
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('theirs\n');
  });
});
