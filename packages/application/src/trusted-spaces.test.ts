import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempAppDirectory } from './test/builders.js';
import { TrustedSpaces } from './trusted-spaces.js';

describe('TrustedSpaces', () => {
  it('sees its file edited in place, replaced, damaged or removed by another process at once', async () => {
    const directory = tempAppDirectory();
    const file = join(directory, 'trusted-spaces.json');
    const trusted = new TrustedSpaces(directory);
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    await trusted.set('/spaces/a', 'user');
    expect(await trusted.reasonOf('/spaces/a')).toBe('user');
    // The same size in the same file, within the clock tick of the write before it.
    writeFileSync(file, readFileSync(file, 'utf8').replace('/spaces/a', '/spaces/b'));
    expect(await trusted.reasonOf('/spaces/a')).toBeUndefined();
    expect(await trusted.reasonOf('/spaces/b')).toBe('user');
    writeFileSync(`${file}.new`, JSON.stringify({ version: 1, spaces: ['/spaces/c'] }));
    renameSync(`${file}.new`, file);
    expect(await trusted.isTrusted('/spaces/b')).toBe(false);
    expect(await trusted.reasonOf('/spaces/c')).toBe('user');
    writeFileSync(file, '{"version":');
    expect(await trusted.isTrusted('/spaces/c')).toBe(false);
    await expect(trusted.set('/spaces/d', 'user')).rejects.toMatchObject({ code: 'data_corrupt' });
    rmSync(file);
    expect(await trusted.isTrusted('/spaces/c')).toBe(false);
    expect(await trusted.set('/spaces/d', 'created')).toBe(false);
    expect(await trusted.reasonOf('/spaces/d')).toBe('created');
  });
});
