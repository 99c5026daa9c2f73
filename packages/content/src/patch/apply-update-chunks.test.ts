import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { applyUpdateChunks } from './apply-update-chunks.js';
import { type PatchHunk, parsePatch } from './parse-patch.js';

const apply = (original: string, ...lines: string[]) => {
  const [hunk] = parsePatch(
    ['*** Begin Patch', '*** Update File: f', ...lines, '*** End Patch'].join('\n'),
  );
  return applyUpdateChunks(original, (hunk as Extract<PatchHunk, { type: 'update' }>).chunks, 'f');
};

describe('applyUpdateChunks', () => {
  describe('Codex semantics', () => {
    it('applies several chunks in order, jumping to @@ context lines', () => {
      expect(
        apply(
          'a\nb\nc\nd\ne\nf\n',
          '@@',
          ' a',
          '-b',
          '+B',
          '@@ d',
          '-e',
          '+E',
          '@@',
          ' f',
          '+g',
          '*** End of File',
        ),
      ).toBe('a\nB\nc\nd\nE\nf\ng\n');
    });

    it('changes one line of a file of 500,000 lines, keeping the others', () => {
      const original = 'the tide turns\n'.repeat(500_000);
      const updated = apply(`HEAD\n${original}`, '@@', '-HEAD', '+TOP');
      expect(updated).toBe(`TOP\n${original}`);
    });

    it('puts a pure addition at the end of the file', () => {
      expect(
        apply(
          'line1\nline2\nline3\n',
          '@@',
          '+after',
          '@@',
          ' line1',
          '-line2',
          '-line3',
          '+replaced',
        ),
      ).toBe('line1\nreplaced\nafter\n');
    });

    it('retries without a trailing empty line that stands for the final newline', () => {
      expect(apply('a\nb\n', '@@', ' a', '-b', '+B', '')).toBe('a\nB\n');
    });

    it('throws patch_conflict when the context or the old lines are missing', async () => {
      expect(
        (await repaErrorOf((async () => apply('a\n', '@@ nowhere', '-a', '+b'))())).message,
      ).toBe("Failed to find context 'nowhere' in f");
      expect((await repaErrorOf((async () => apply('a\n', '@@', '-z', '+b'))())).code).toBe(
        'patch_conflict',
      );
    });
  });

  describe('preservation', () => {
    it('keeps CRLF, a BOM and a missing final newline', () => {
      expect(apply('\uFEFFa\r\nb\r\nc', '@@', ' a', '-b', '+B', '+B2')).toBe(
        '\uFEFFa\r\nB\r\nB2\r\nc',
      );
    });

    it('keeps the line ending of each kept line in a mixed file; new lines take the dominant one', () => {
      expect(apply('a\r\nb\nc\r\n', '@@', ' a', ' b', '-c', '+C')).toBe('a\r\nb\nC\r\n');
      expect(apply('a\nb\r\nc\n', '@@', ' a', ' b', '-c', '+C')).toBe('a\nb\r\nC\n');
    });

    it('deletes everything down to an empty file', () => {
      expect(apply('a\nb\n', '@@', '-a', '-b')).toBe('');
    });
  });
});
