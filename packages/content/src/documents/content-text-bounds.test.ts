import { describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { tempSpaces } from '../test/temp-space.js';
import { readContentText } from './index.js';

// Spec R74: a text file is decoded only as far as the caller shows it; its lines are counted over
// all its bytes without making the whole text.

const space = tempSpaces();

describe('readContentText within maxChars', () => {
  it('gives the first characters of a text mixing 1- to 4-byte characters and invalid bytes exactly as the whole text begins', async () => {
    const mixed = Buffer.concat([
      Buffer.from('a\né€😀\n'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('b\n'.repeat(50)),
    ]);
    const whole = mixed.toString('utf8');
    const root = await space({ 'mixed.md': mixed });
    const store = await ContentStore.open({ root });
    for (let maxChars = 0; maxChars <= whole.length + 1; maxChars++) {
      const read = await readContentText(store, 'mixed.md', { maxChars });
      expect(read.text).toBe(whole.slice(0, maxChars));
      expect(read.truncated).toBe(maxChars < whole.length);
      expect(read.lines).toBe(whole.split('\n').length);
    }
  });

  it('counts no line in an empty file, and one in a file without a newline', async () => {
    const root = await space({ 'empty.md': '', 'one.md': 'x' });
    const store = await ContentStore.open({ root });
    expect(await readContentText(store, 'empty.md', { maxChars: 10 })).toMatchObject({
      text: '',
      truncated: false,
      lines: 0,
    });
    expect(await readContentText(store, 'one.md', { maxChars: 10 })).toMatchObject({
      text: 'x',
      truncated: false,
      lines: 1,
    });
  });

  it('decodes no more of an 8 MiB one-line note than asked, and counts its lines over all its bytes', async () => {
    const note = Buffer.alloc(8 * 1024 * 1024, 'word ');
    note[note.length - 1] = 0x0a;
    const root = await space({ 'long.md': note });
    const store = await ContentStore.open({ root });
    const read = await readContentText(store, 'long.md', { maxChars: 1000 });
    expect(read.text).toBe('word '.repeat(200));
    expect(read).toMatchObject({ truncated: true, lines: 2 });
    expect(read.snapshot.bytes.length).toBe(note.length);
  });
});
