import { describe, expect, it } from 'vitest';
import { listedName, shownName } from './listed-name.js';
import { nameProblem, parseSpacePath } from './space-path.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
  );

describe('shownName', () => {
  it('shows line breaks, tabs, control characters, backslashes and bytes that are not UTF-8 escaped, the rest as it is', () => {
    expect(shownName(bytes('a\nb\r\tc'))).toBe('a\\nb\\r\\tc');
    expect(shownName(bytes('x\u0001y\u007f'))).toBe('x\\x01y\\x7F');
    expect(shownName(bytes('back\\slash'))).toBe('back\\\\slash');
    expect(shownName(bytes('bad', [0xff], '.md'))).toBe('bad\\xFF.md');
    // A cut 3-byte character (€ is E2 82 AC), and one followed by a letter.
    expect(shownName(bytes('a', [0xe2, 0x82]))).toBe('a\\xE2\\x82');
    expect(shownName(bytes([0xc3], 'b'))).toBe('\\xC3b');
    expect(shownName(bytes('café €😀'))).toBe('café €😀');
  });
});

describe('nameProblem', () => {
  it('finds in one name exactly what parseSpacePath refuses or reads as another path', () => {
    const names = [
      'notes.md',
      'café.md',
      'a\nb.md',
      'tab\there',
      'del\u007f',
      '10:30.md',
      'trailing.',
      'trailing ',
      'con.md',
      'CON',
      'console.md',
      'lpt1.txt',
      'con .md',
      'con\u00a0\u00a0.md',
      'aux',
      'comx.md',
      'com¹.txt',
      '~',
      '~notes',
      'back\\slash.md',
      '..notes.md',
      '\u00a0space.md',
    ];
    for (const name of names) {
      let accepted: boolean;
      try {
        accepted = parseSpacePath(name) === name;
      } catch {
        accepted = false;
      }
      expect([name, nameProblem(name) === undefined]).toEqual([name, accepted]);
    }
  });

  it('gives the error opening it gives', () => {
    expect(nameProblem('a\nb.md')?.message).toBe(
      'The path "a\\nb.md" contains a control character.',
    );
    expect(listedName(bytes('a\nb.md'))).toMatchObject({
      name: 'a\\nb.md',
      problem: { code: 'invalid_request' },
    });
    expect(listedName(bytes('ok.md'))).toEqual({ name: 'ok.md' });
  });
});
