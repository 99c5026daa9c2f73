import { describe, expect, it } from 'vitest';
import { seekSequence } from './seek-sequence.js';

describe('seekSequence', () => {
  describe('matching passes', () => {
    it('finds an exact match at or after the start', () => {
      expect(seekSequence(['a', 'b', 'a', 'b'], ['a', 'b'], 1, false)).toBe(2);
    });

    it('ignores trailing, then surrounding whitespace', () => {
      expect(seekSequence(['foo   ', 'bar\t'], ['foo', 'bar'], 0, false)).toBe(0);
      expect(seekSequence(['  foo  ', '\tbar'], ['foo', 'bar'], 0, false)).toBe(0);
    });

    it('folds typographic dashes, quotes and spaces last', () => {
      expect(
        seekSequence(['say \u201Chi\u201D \u2013 now\u00A0ok'], ['say "hi" - now ok'], 0, false),
      ).toBe(0);
    });

    it('prefers a stricter match over an earlier lenient one', () => {
      expect(seekSequence(['x ', 'x'], ['x'], 0, false)).toBe(1);
    });
  });

  describe('edges', () => {
    it('matches an empty pattern at the start and refuses a pattern longer than the file', () => {
      expect(seekSequence(['a'], [], 1, false)).toBe(1);
      expect(seekSequence(['a'], ['a', 'b'], 0, false)).toBeUndefined();
    });

    it('only matches at the end of the file for an end-of-file chunk', () => {
      expect(seekSequence(['a', 'b', 'a'], ['a'], 0, true)).toBe(2);
      expect(seekSequence(['a', 'b'], ['a'], 0, true)).toBeUndefined();
    });
  });
});
