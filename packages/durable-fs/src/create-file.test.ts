import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { createFile } from './replace-file.js';
import { failingFs as failing } from './testing/index.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'repa-durable-fs-'));
}

describe('createFile', () => {
  it('creates the file with the bytes and mode given and leaves no temp file', async () => {
    const dir = folder();
    const file = join(dir, 's.jsonl');
    await createFile(file, Buffer.from('header\n'), { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe('header\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['s.jsonl']);
  });

  it('refuses an existing file with io_error (errno EEXIST) and leaves its bytes', async () => {
    const dir = folder();
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'theirs');
    const error = await repaErrorOf(createFile(file, Buffer.from('ours')));
    expect(error.code).toBe('io_error');
    expect(error.details).toMatchObject({ errno: 'EEXIST', path: file });
    expect(readFileSync(file, 'utf8')).toBe('theirs');
    expect(readdirSync(dir)).toEqual(['s.jsonl']);
  });

  for (const [method, code] of [
    ['write', 'ENOSPC'],
    ['sync', 'EIO'],
    ['link', 'EIO'],
  ] as const) {
    it(`a failed ${method} (${code}) leaves neither the file nor a temp file`, async () => {
      const dir = folder();
      const { fs, failed } = failing(method, code);
      const error = await repaErrorOf(createFile(join(dir, 's.jsonl'), Buffer.from('x'), { fs }));
      expect(failed).toEqual([method]);
      expect(error.code).toBe('io_error');
      expect(error.details).toMatchObject({ errno: code });
      expect(readdirSync(dir)).toEqual([]);
    });
  }

  it('renames the temp file where the file system has no hard links (EPERM)', async () => {
    const dir = folder();
    const file = join(dir, 's.jsonl');
    const { fs, failed } = failing('link', 'EPERM');
    await createFile(file, Buffer.from('header\n'), { fs });
    expect(failed).toEqual(['link']);
    expect(readFileSync(file, 'utf8')).toBe('header\n');
    expect(readdirSync(dir)).toEqual(['s.jsonl']);
  });

  it('without hard links still refuses an existing file and leaves its bytes', async () => {
    const dir = folder();
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'theirs');
    const { fs } = failing('link', 'EPERM');
    const error = await repaErrorOf(createFile(file, Buffer.from('ours'), { fs }));
    expect(error.details).toMatchObject({ errno: 'EEXIST' });
    expect(readFileSync(file, 'utf8')).toBe('theirs');
    expect(readdirSync(dir)).toEqual(['s.jsonl']);
  });

  it('a folder fsync failing with EIO is io_error after the file is created', async () => {
    const dir = folder();
    const file = join(dir, 's.jsonl');
    const { fs } = failing('syncDir', 'EIO');
    const error = await repaErrorOf(createFile(file, Buffer.from('x'), { fs }));
    expect(error.details).toMatchObject({ errno: 'EIO' });
    expect(readdirSync(dir)).toEqual(['s.jsonl']);
  });
});
