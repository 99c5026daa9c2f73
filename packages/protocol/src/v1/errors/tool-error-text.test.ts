import { describe, expect, it } from 'vitest';
import { RepaError } from './repa-error.js';
import { parseToolErrorText, toolErrorMessage, toolErrorText } from './tool-error-text.js';

describe('toolErrorText', () => {
  it('round-trips the code and the fix through the text the model sees', () => {
    const error = new RepaError('stale_version', 'a.md changed since it was read.', {
      fix: 'Read it again.',
    });
    const text = toolErrorText(error, ['Current version: abc']);
    expect(text).toBe(
      'stale_version: a.md changed since it was read.\nCurrent version: abc\nFix: Read it again.',
    );
    expect(parseToolErrorText(text)).toEqual({
      code: 'stale_version',
      message: text,
      fix: 'Read it again.',
    });
  });

  it('reads any other text as internal with the standard fix', () => {
    expect(parseToolErrorText('ENOENT: no such file')).toMatchObject({ code: 'internal' });
    expect(parseToolErrorText('')).toMatchObject({ code: 'internal', message: 'The tool failed.' });
  });

  it('gives what happened without the code before it and the fix after it', () => {
    const text = toolErrorText(
      new RepaError('stale_version', 'a.md changed.', { fix: 'Read it.' }),
      ['Current version: abc'],
    );
    expect(toolErrorMessage(parseToolErrorText(text))).toBe('a.md changed.\nCurrent version: abc');
    expect(toolErrorMessage({ code: 'internal', message: 'ENOENT: no such file' })).toBe(
      'ENOENT: no such file',
    );
  });
});
