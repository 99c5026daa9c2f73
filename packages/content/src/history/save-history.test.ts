import { existsSync } from 'node:fs';
import { readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FsHandle, type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { describe, expect, it } from 'vitest';
import type { SaveStep } from '../save/index.js';
import { ContentStore } from '../store/index.js';
import { tempSpaces } from '../test/temp-space.js';

const space = tempSpaces();
const bytes = (text: string) => Buffer.from(text, 'utf8');

/** Sets a file's times a minute into the past, as for any file not touched in the last seconds. */
async function settle(root: string, path: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await utimes(join(root, path), past, past);
}

describe('SaveHistory while a save runs', () => {
  it("keeps the replaced bytes and opens the saves log while the temp file's fsync waits", async () => {
    const root = await space({ 'a.md': 'one\n' });
    const seen: { linked?: boolean; logOpened?: boolean } = {};
    const opened: string[] = [];
    const store0 = await ContentStore.open({ root });
    const { version } = await store0.read('a.md');
    const keptPath = join(root, '.repa/history/bytes', version);
    const fs: FsLayer = {
      ...nodeFsLayer,
      open: async (path, flags, mode) => {
        opened.push(path);
        return nodeFsLayer.open(path, flags, mode);
      },
      // The temp file's fsync (the only file fsync of this save) looks at what is done meanwhile.
      sync: async (handle) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen.linked = existsSync(keptPath);
        seen.logOpened = opened.includes(join(root, '.repa/history/saves.log'));
        await nodeFsLayer.sync(handle);
      },
    };
    const store = await ContentStore.open({ root, fs });
    const a = await store.read('a.md');
    await store.save([{ target: 'a.md', content: bytes('two\n'), expectedVersion: a.version }]);
    expect(seen).toEqual({ linked: true, logOpened: true });
    expect((await store.history.read(version)).toString()).toBe('one\n');
    const [record] = (await store.history.all()).records;
    expect(record?.changes).toMatchObject([
      { target: 'a.md', previousVersion: version, kept: true },
    ]);
  });

  it('closes the saves log it opened early once when writing the record fails, and the save stands', async () => {
    const root = await space({ 'a.md': 'one\n' });
    const logPath = join(root, '.repa/history/saves.log');
    const logHandles = new Set<FsHandle>();
    const closes: FsHandle[] = [];
    const fs: FsLayer = {
      ...nodeFsLayer,
      open: async (path, flags, mode) => {
        const handle = await nodeFsLayer.open(path, flags, mode);
        if (path === logPath) logHandles.add(handle);
        return handle;
      },
      write: async (handle, data, position) => {
        if (logHandles.has(handle)) throw Object.assign(new Error('EIO'), { code: 'EIO' });
        return nodeFsLayer.write(handle, data, position);
      },
      close: async (handle) => {
        if (logHandles.has(handle)) closes.push(handle);
        return nodeFsLayer.close(handle);
      },
    };
    const store = await ContentStore.open({ root, fs });
    const a = await store.read('a.md');
    await store.save([{ target: 'a.md', content: bytes('two\n'), expectedVersion: a.version }]);
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('two\n');
    expect(logHandles.size).toBe(1);
    expect(closes).toEqual([...logHandles]);
  });

  it('keeps the bytes of the file the save replaced when the target was swapped after the early link', async () => {
    const root = await space({ 'a.md': 'one\n' });
    await settle(root, 'a.md');
    let armed = false;
    const hooks = {
      step: async (step: SaveStep) => {
        if (!armed || step !== 'temp-written') return;
        armed = false;
        // Another writer moves the file away, puts the same bytes back as a new file, then changes
        // the moved one (the file the history linked) in place.
        await rename(join(root, 'a.md'), join(root, 'b.md'));
        await writeFile(join(root, 'a.md'), 'one\n');
        await writeFile(join(root, 'b.md'), 'XXX\n');
      },
    };
    const store = await ContentStore.open({ root, hooks });
    const a = await store.read('a.md');
    armed = true;
    await store.save([{ target: 'a.md', content: bytes('two\n'), expectedVersion: a.version }]);
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('two\n');
    expect((await store.history.read(a.version)).toString()).toBe('one\n');
  });
});
