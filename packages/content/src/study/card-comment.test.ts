import { describe, expect, it } from 'vitest';
import { formatCardComment, isCardId, newCardId, parseCardComment } from './card-comment.js';

describe('card comments', () => {
  it('reads back what it writes, quote characters included', () => {
    const source = {
      id: newCardId(),
      cite: 'notes/cells.md:12-14',
      version: 'a'.repeat(64),
      quote: 'ATP -- the "energy currency" --> of the cell\nsecond line <!-- x',
    };
    const line = formatCardComment(source);
    expect(line.indexOf('--', 4)).toBe(line.length - 3);
    expect(line).not.toContain('\n');
    expect(parseCardComment(line)).toEqual(source);
    expect(parseCardComment(`  ${line}  `)).toEqual(source);
  });

  it('gives ids a note, a log line and an Anki GUID carry safely', () => {
    const ids = new Set(Array.from({ length: 200 }, newCardId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isCardId(id) && /^c[a-z2-7]{10}$/.test(id)).toBe(true);
    expect(isCardId('Has Space')).toBe(false);
  });

  it('ignores lines that are not a well-formed card comment', () => {
    for (const line of [
      'What is ATP?::The energy currency',
      '<!--SR:!2024-08-16,51,230-->',
      '<!--repa:card {"id":"c1"}-->',
      '<!--repa:card {not json}-->',
      '<!--repa:card {"id":"BAD ID","cite":"a","version":"b","quote":"c"}-->',
      'text <!--repa:card {"id":"cabcd","cite":"a","version":"b","quote":"c"}-->',
    ]) {
      expect(parseCardComment(line)).toBeUndefined();
    }
  });
});
