import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { type FsLayer, nodeFsLayer } from './fs-layer.js';
import { isReplaceTempName, replaceFile, syncDirectory } from './replace-file.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'repa-durable-fs-'));
}

/** The real file system, except that every call of `method` fails with `code`. */
function failing(method: keyof FsLayer, code: string): FsLayer {
  const fail = async () => {
    throw Object.assign(new Error(`${code}: injected failure of ${method}`), { code });
  };
  return { ...nodeFsLayer, [method]: fail };
}

describe('replaceFile', () => {
  it('replaces the file with the new bytes and leaves no temp file', async () => {
    const dir = folder();
    const file = join(dir, 'a.json');
    writeFileSync(file, 'old');
    await replaceFile(file, Buffer.from('new'));
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('keeps the mode of the file it replaces, and sets an explicit mode exactly', async () => {
    const dir = folder();
    const kept = join(dir, 'kept');
    writeFileSync(kept, 'old', { mode: 0o640 });
    await replaceFile(kept, Buffer.from('new'));
    expect(statSync(kept).mode & 0o777).toBe(0o640);
    const made = join(dir, 'made');
    await replaceFile(made, Buffer.from('x'), { mode: 0o600 });
    expect(statSync(made).mode & 0o777).toBe(0o600);
  });

  for (const code of ['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EPERM', 'EISDIR', 'EBADF']) {
    it(`counts a folder fsync refused with ${code} as done`, async () => {
      const dir = folder();
      const file = join(dir, 'a.json');
      await replaceFile(file, Buffer.from('saved'), { fs: failing('syncDir', code) });
      expect(readFileSync(file, 'utf8')).toBe('saved');
    });
  }

  for (const [sync, fileSyncs, folderSyncs] of [
    ['all', 1, 1],
    ['file', 1, 0],
    ['none', 0, 0],
  ] as const) {
    it(`with sync: '${sync}' fsyncs the new bytes ${fileSyncs}× and the folder ${folderSyncs}×`, async () => {
      const dir = folder();
      const file = join(dir, 'a.json');
      writeFileSync(file, 'old');
      const calls = { sync: 0, syncDir: 0 };
      const counting: FsLayer = {
        ...nodeFsLayer,
        sync: async (handle) => {
          calls.sync++;
          await nodeFsLayer.sync(handle);
        },
        syncDir: async (path) => {
          calls.syncDir++;
          await nodeFsLayer.syncDir(path);
        },
      };
      await replaceFile(file, Buffer.from('new'), { fs: counting, sync });
      expect(readFileSync(file, 'utf8')).toBe('new');
      expect(readdirSync(dir)).toEqual(['a.json']);
      expect(calls).toEqual({ sync: fileSyncs, syncDir: folderSyncs });
    });
  }

  it('fails with io_error (errno EIO) when the folder fsync fails with EIO', async () => {
    const dir = folder();
    const error = await repaErrorOf(
      replaceFile(join(dir, 'a.json'), Buffer.from('x'), { fs: failing('syncDir', 'EIO') }),
    );
    expect(error.code).toBe('io_error');
    expect(error.details).toMatchObject({ errno: 'EIO', path: dir });
  });

  for (const method of ['write', 'sync', 'rename'] as const) {
    it(`fails with io_error when ${method} fails, leaving the old file and no temp file`, async () => {
      const dir = folder();
      const file = join(dir, 'a.json');
      writeFileSync(file, 'old');
      const error = await repaErrorOf(
        replaceFile(file, Buffer.from('new'), { fs: failing(method, 'EIO') }),
      );
      expect(error.code).toBe('io_error');
      expect(error.details).toMatchObject({ errno: 'EIO', path: file });
      expect(error.message).toContain(file);
      expect(readFileSync(file, 'utf8')).toBe('old');
      expect(readdirSync(dir)).toEqual(['a.json']);
    });
  }

  it('names its temp files so isReplaceTempName recognises them, and nothing else', async () => {
    const dir = folder();
    const file = join(dir, 'a.json');
    const opened: string[] = [];
    const spy: FsLayer = {
      ...nodeFsLayer,
      open: (path, flags, mode) => {
        opened.push(path);
        return nodeFsLayer.open(path, flags, mode);
      },
    };
    await replaceFile(file, Buffer.from('x'), { fs: spy });
    expect(opened).toHaveLength(1);
    expect(isReplaceTempName('a.json', (opened[0] as string).slice(dir.length + 1))).toBe(true);
    expect(isReplaceTempName('a.json', 'a.json.bak')).toBe(false);
    expect(isReplaceTempName('a.json', 'b.json.12')).toBe(false);
  });
});

describe('syncDirectory', () => {
  it('syncs a real folder', async () => {
    await expect(syncDirectory(folder())).resolves.toBeUndefined();
  });

  it('fails with io_error for a folder that does not exist', async () => {
    const error = await repaErrorOf(syncDirectory(join(folder(), 'missing')));
    expect(error.code).toBe('io_error');
    expect(error.details).toMatchObject({ errno: 'ENOENT' });
  });
});
