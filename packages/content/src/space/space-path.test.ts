import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { isProtectedName, parseSpacePath } from './space-path.js';

const codeOf = (path: string) => {
  try {
    parseSpacePath(path);
    return 'accepted';
  } catch (error) {
    return RepaError.isInstance(error) ? error.code : 'not a RepaError';
  }
};

describe('parseSpacePath', () => {
  describe('accepted paths', () => {
    it('returns the canonical relative form', () => {
      expect(parseSpacePath('notes/a.md')).toBe('notes/a.md');
      expect(parseSpacePath('./notes//a.md/')).toBe('notes/a.md');
      expect(parseSpacePath('notes\\sub\\a.md')).toBe('notes/sub/a.md');
      expect(parseSpacePath('café/naïve.md')).toBe('café/naïve.md');
      expect(parseSpacePath('console.md')).toBe('console.md');
      expect(parseSpacePath('.repair/x')).toBe('.repair/x');
      expect(parseSpacePath('repa/x')).toBe('repa/x');
      expect(parseSpacePath('..notes.md')).toBe('..notes.md');
      expect(parseSpacePath('repa~/x')).toBe('repa~/x');
    });
  });

  describe('escapes', () => {
    it.each([
      '/etc/passwd',
      '\\\\server\\share\\x',
      'C:\\Windows\\x',
      'C:/Windows/x',
      'C:',
      '~/notes.md',
      '~',
      'file:///etc/passwd',
      '../outside.md',
      'notes/../../outside.md',
      'notes/../a.md',
      '..',
    ])('refuses %j with path_outside_space', (path) => {
      expect(codeOf(path)).toBe('path_outside_space');
    });
  });

  describe('unsafe names', () => {
    it.each([
      '',
      '.',
      'a\0b.md',
      'line\nbreak.md',
      'CON',
      'con.txt',
      'Nul.tar.gz',
      'notes/aux',
      'COM1.md',
      'lpt9',
      'COM¹.txt',
      'CON .txt',
      'notes.',
      'notes ',
      'dir./a.md',
      // A drive-relative `c:x` or a stream `a.md:s` is a ":" in a name, not a location.
      'c:x',
      'a:b',
      'notes.md:stream',
    ])('refuses %j with invalid_request', (path) => {
      expect(codeOf(path)).toBe('invalid_request');
    });
  });

  describe('protected folder', () => {
    it.each([
      '.repa/settings.json',
      '.repa',
      'sub/.repa/x',
      '.REPA/x',
      '.Repa/x',
      '.rep\u0430/x',
      '.r\u0435pa/x',
      '.re\u0440a/x',
      '.\u0433epa/x',
      '\uFF0Erepa/x',
      '\u3002repa/x',
      '.\uFF52\uFF45\uFF50\uFF41/x',
      '.rep\u0061\u0301/x',
      '.re\u200Bpa/x',
      '.repa\u00AD/x',
      '.\u0052\u0045\u0420\u0410/x',
      'REPA~1',
      'repa~2/x',
      'sub/Repa~10',
      '\uFF32\uFF25\uFF30\uFF21\uFF5E1/x',
    ])('refuses %j with protected_path', (path) => {
      expect(codeOf(path)).toBe('protected_path');
    });

    it('treats NFC and NFD spellings alike', () => {
      const nfd = '.repá'.normalize('NFD');
      const nfc = '.repá'.normalize('NFC');
      expect(isProtectedName(nfd)).toBe(isProtectedName(nfc));
      expect(isProtectedName(nfc)).toBe(true);
    });
  });
});
