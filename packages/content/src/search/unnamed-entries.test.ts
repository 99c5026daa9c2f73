import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { tempSpaces } from '../test/temp-space.js';
import { listSpaceFolder } from './index.js';

// Names no path of the space can give (their bytes are not UTF-8, or hold a line break or a
// backslash): listed as they are, escaped, with why they cannot be opened; never offered as a path
// that names another file or nothing.

const space = tempSpaces();

/** A space whose `odd/` holds a name with a line break, one with a byte that is not UTF-8, one with
 * a backslash, a folder with a line break (and a note inside), and an ordinary note. */
async function oddSpace(): Promise<string> {
  const root = await space({ 'odd/ok.md': 'ok\n', 'odd/dir\nx/inside.md': 'hidden needle\n' });
  const odd = join(root, 'odd');
  writeFileSync(join(odd, 'a\nb.md'), 'needle\n');
  writeFileSync(
    Buffer.concat([Buffer.from(`${odd}/bad`), Buffer.from([0xff]), Buffer.from('.md')]),
    'needle\n',
  );
  writeFileSync(join(odd, 'back\\slash.md'), 'needle\n');
  return root;
}

describe('a folder holding names no path can give', () => {
  it('lists each shown escaped, with the reason opening it gives, and the other entries as before', async () => {
    const root = await oddSpace();
    const { store } = await openTools(root);
    const listing = await listSpaceFolder(store, 'odd');
    expect(
      listing.entries.map((entry) => [entry.name, entry.folder, entry.problem ?? entry.size]),
    ).toEqual([
      ['a\\nb.md', false, 'The path "a\\nb.md" contains a control character.'],
      [
        'back\\\\slash.md',
        false,
        'The name "back\\\\slash.md" holds a backslash, which Repa reads as a folder separator.',
      ],
      [
        'bad\\xFF.md',
        false,
        'The name "bad\\xFF.md" is not valid UTF-8, so Repa cannot name the file to open or change it.',
      ],
      ['dir\\nx', true, 'The path "dir\\nx" contains a control character.'],
      ['ok.md', false, 3],
    ]);
    expect(listing.entries.map((entry) => entry.path)).toEqual([
      'odd/a\\nb.md',
      'odd/back\\\\slash.md',
      'odd/bad\\xFF.md',
      'odd/dir\\nx',
      'odd/ok.md',
    ]);
  });

  it('says why opening one fails, where a lossy listing gave a name that named nothing', async () => {
    const root = await oddSpace();
    const { store } = await openTools(root);
    const lossy = await repaErrorOf(store.read('odd/bad\uFFFD.md'));
    expect(lossy.code).toBe('invalid_request');
    expect(lossy.message).toBe(
      'The name "bad\\xFF.md" is not valid UTF-8, so Repa cannot name the file to open or change it.',
    );
    const newline = await repaErrorOf(store.read('odd/a\nb.md'));
    expect(newline.code).toBe('invalid_request');
    expect(newline.message).toContain('contains a control character');
    // A name really holding U+FFFD is a name like any other: gone, it is not found.
    expect((await repaErrorOf(store.read('odd/gone\uFFFD.md'))).code).toBe('not_found');
  });

  it('ls shows them with why; find and grep leave them out and say how many, naming the first', async () => {
    const root = await oddSpace();
    const { call } = await openTools(root);
    expect(textOf(await call('ls', { path: 'odd' })).split('\n')).toEqual([
      'a\\nb.md (cannot be opened: The path "a\\nb.md" contains a control character.)',
      'back\\\\slash.md (cannot be opened: The name "back\\\\slash.md" holds a backslash, which Repa reads as a folder separator.)',
      'bad\\xFF.md (cannot be opened: The name "bad\\xFF.md" is not valid UTF-8, so Repa cannot name the file to open or change it.)',
      'dir\\nx/ (cannot be opened: The path "dir\\nx" contains a control character.)',
      'ok.md (3B)',
    ]);
    const grep = await call('grep', { pattern: 'needle' });
    expect(textOf(grep)).toContain('No matches found');
    expect(grep.details).toMatchObject({ unnamed: { count: 4, first: 'odd/a\\nb.md' } });
    expect(textOf(grep)).toContain(
      '4 file(s) or folder(s) not searched because their names cannot be used in a path',
    );
    const find = await call('find', { pattern: '*.md' });
    expect(textOf(find).split('\n')[0]).toBe('odd/ok.md');
    expect(find.details).toMatchObject({ unnamed: { count: 4 } });
  });
});
