import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IGNORE_EVERYTHING, ignoreFolderContents } from './ignore-folder.js';

describe('ignoreFolderContents', () => {
  it('writes a .gitignore of * into a new folder and leaves an existing one alone', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'repa-ignore-')), '.repa');
    mkdirSync(dir);
    await ignoreFolderContents(dir);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(IGNORE_EVERYTHING);
    writeFileSync(join(dir, '.gitignore'), 'sessions/\n');
    await ignoreFolderContents(dir);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('sessions/\n');
  });
});
