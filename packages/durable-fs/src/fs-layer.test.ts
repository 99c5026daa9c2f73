import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREATE_EXCLUSIVE, nodeFsLayer as fs, READ_NO_FOLLOW } from './fs-layer.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'repa-fs-layer-'));
}

describe('nodeFsLayer', () => {
  it.each([
    ['an empty file', 0],
    ['a small file (read on the calling thread)', 4096],
    ['a file of exactly 64 KiB', 64 * 1024],
    ['a large file (read through the thread pool)', 3 * 1024 * 1024 + 17],
  ])('read returns the whole of %s', async (_, size) => {
    const path = join(folder(), 'f.bin');
    const bytes = Buffer.alloc(size);
    for (let index = 0; index < size; index++) bytes[index] = (index * 7) % 251;
    writeFileSync(path, bytes);
    const handle = await fs.open(path, READ_NO_FOLLOW);
    try {
      expect((await fs.read(handle)).equals(bytes)).toBe(true);
      // A second read of the same handle starts at the beginning again (a stable read retries).
      expect((await fs.read(handle)).equals(bytes)).toBe(true);
    } finally {
      await fs.close(handle);
    }
  });

  it.each([
    ['a small write', 1000],
    ['a large write', 2 * 1024 * 1024 + 3],
  ])('write puts all bytes of %s into a new file', async (_, size) => {
    const path = join(folder(), 'w.bin');
    const bytes = Buffer.alloc(size, 0x5a);
    const handle = await fs.open(path, CREATE_EXCLUSIVE, 0o600);
    await fs.write(handle, bytes);
    await fs.sync(handle);
    await fs.close(handle);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it.each([
    ['small', 300],
    ['large (through the thread pool)', 2 * 1024 * 1024 + 5],
  ])('writes at a position, reads a range and truncates a %s file', async (_, size) => {
    const path = join(folder(), 'f.bin');
    const bytes = Buffer.alloc(size);
    for (let index = 0; index < size; index++) bytes[index] = (index * 13) % 251;
    const handle = await fs.open(path, constants.O_RDWR | constants.O_CREAT, 0o600);
    try {
      await fs.write(handle, bytes, 10);
      await fs.write(handle, Buffer.from('head'), 0);
      const disk = readFileSync(path);
      expect(disk.length).toBe(size + 10);
      expect(disk.subarray(0, 4).toString()).toBe('head');
      expect(disk.subarray(10).equals(bytes)).toBe(true);
      // A range past the end comes back short: what is there.
      expect((await fs.readAt(handle, size + 100, 10)).equals(bytes)).toBe(true);
      expect((await fs.readAt(handle, 4, 0)).toString()).toBe('head');
      await fs.truncate(handle, 4);
      expect(readFileSync(path).toString()).toBe('head');
    } finally {
      await fs.close(handle);
    }
  });

  it('syncDir refuses a FIFO put where a folder was, at once, with ENOTDIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repa-fs-layer-'));
    const fifo = join(dir, 'was-a-folder');
    execFileSync('mkfifo', [fifo]);
    // In a child process: an open that waits on the FIFO would hold this thread, and the test's
    // timer with it; the child's time limit turns that into a failure.
    // (The package's build, as `npm test` makes it first.)
    const dist = new URL('../dist/index.js', import.meta.url).pathname;
    const script = `import('${dist}').then(({ nodeFsLayer }) => nodeFsLayer.syncDir(process.argv[1])).then(() => console.log('synced'), (error) => console.log(error.code));`;
    const answer = execFileSync(process.execPath, ['-e', script, fifo], {
      encoding: 'utf8',
      timeout: 10_000,
      // Node's own SIGTERM handler needs the event loop, which the waiting open would hold.
      killSignal: 'SIGKILL',
    });
    expect(answer.trim()).toBe('ENOTDIR');
    await fs.syncDir(dir);
  });

  it('rejects (does not throw) when a call fails, with the errno code', async () => {
    const dir = folder();
    await expect(fs.lstat(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.open(join(dir, 'missing'), READ_NO_FOLLOW)).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await expect(fs.rename(join(dir, 'a'), join(dir, 'b'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('opens and reads with flags that may wait (no O_NONBLOCK, no O_EXCL)', async () => {
    const path = join(folder(), 'r.txt');
    writeFileSync(path, 'text');
    const handle = await fs.open(path, constants.O_RDONLY);
    try {
      expect((await fs.read(handle)).toString()).toBe('text');
    } finally {
      await fs.close(handle);
    }
  });
});
