import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
const errorOf = (text: string) => repaErrorOf((async () => parsePatch(text))());

describe('parsePatch', () => {
  describe('hunks', () => {
    it('parses add, delete and update with a move, context and end of file', () => {
      expect(
        parsePatch(
          patch(
            '*** Add File: a/new.md',
            '+one',
            '+',
            '*** Delete File: old.md',
            '*** Update File: src.md',
            '*** Move to: dst.md',
            '@@ ## Heading',
            ' keep',
            '-drop',
            '+add',
            '',
            '@@',
            '-tail',
            '+TAIL',
            '*** End of File',
          ),
        ),
      ).toEqual([
        { type: 'add', path: 'a/new.md', contents: 'one\n\n' },
        { type: 'delete', path: 'old.md' },
        {
          type: 'update',
          path: 'src.md',
          moveTo: 'dst.md',
          chunks: [
            {
              context: '## Heading',
              endOfFile: false,
              lines: [
                { kind: ' ', text: 'keep' },
                { kind: '-', text: 'drop' },
                { kind: '+', text: 'add' },
                { kind: ' ', text: '' },
              ],
            },
            {
              endOfFile: true,
              lines: [
                { kind: '-', text: 'tail' },
                { kind: '+', text: 'TAIL' },
              ],
            },
          ],
        },
      ]);
    });

    it('lets the first chunk of an update omit its @@ line', () => {
      expect(parsePatch(patch('*** Update File: a.md', ' import foo', '+bar'))).toEqual([
        {
          type: 'update',
          path: 'a.md',
          chunks: [
            {
              endOfFile: false,
              lines: [
                { kind: ' ', text: 'import foo' },
                { kind: '+', text: 'bar' },
              ],
            },
          ],
        },
      ]);
    });

    it('tolerates whitespace around markers, CRLF line breaks and a heredoc wrapper', () => {
      const text = ` *** Begin Patch \r\n  *** Delete File: a.md\r\n*** End Patch \r\n`;
      expect(parsePatch(text)).toEqual([{ type: 'delete', path: 'a.md' }]);
      expect(parsePatch(`<<"EOF"\n${patch('*** Delete File: a.md')}\nEOF`)).toEqual([
        { type: 'delete', path: 'a.md' },
      ]);
      expect(parsePatch(patch())).toEqual([]);
    });
  });

  describe('errors', () => {
    it.each([
      ['', "Invalid patch: The first line of the patch must be '*** Begin Patch'"],
      [
        '*** Begin Patch\n*** Delete File: a',
        "Invalid patch: The last line of the patch must be '*** End Patch'",
      ],
      [
        patch('*** Frob File: a'),
        "Invalid patch hunk on line 2: '*** Frob File: a' is not a valid hunk header",
      ],
      [
        patch('*** Update File: a.md'),
        "Invalid patch hunk on line 2: Update file hunk for path 'a.md' is empty",
      ],
      [
        patch('*** Update File: a.md', '@@'),
        'Invalid patch hunk on line 4: Update hunk does not contain any lines',
      ],
      [
        patch('*** Update File: a.md', '@@', 'bad'),
        "Invalid patch hunk on line 4: Unexpected line found in update hunk: 'bad'",
      ],
      [
        patch('*** Update File: a.md', '@@', '-a', 'bad'),
        "Invalid patch hunk on line 5: Expected update hunk to start with a @@ context marker, got: 'bad'",
      ],
      [
        patch('*** Update File: a.md', '@@', '*** End of File'),
        'Invalid patch hunk on line 4: Update hunk does not contain any lines',
      ],
    ])('rejects %j with patch_invalid naming the line', async (text, message) => {
      const error = await errorOf(text);
      expect(error.code).toBe('patch_invalid');
      expect(error.message).toContain(message);
    });
  });
});
