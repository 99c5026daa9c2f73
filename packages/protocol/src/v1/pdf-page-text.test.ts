import { describe, expect, it } from 'vitest';
import { pdfPageText } from './pdf-page-text.js';

const item = (str: string, hasEOL = false) => ({ str, hasEOL });

describe('pdfPageText', () => {
  it('joins the items of a line and breaks lines where PDF.js ends one, each item on its line', () => {
    const page = pdfPageText([item('Tides'), item(' rise', true), item('and fall', true)]);
    expect(page.text).toBe('Tides rise\nand fall');
    expect(page.itemLines).toEqual([1, 1, 2]);
  });

  it('keeps one blank line of a run, leaves out blank lines at either end, and numbers the lines after them', () => {
    const page = pdfPageText([
      item('   ', true),
      item('', true),
      item('  Title  ', true),
      item(' ', true),
      item('', true),
      item('', true),
      item('Body\0 text', true),
      item('  ', true),
    ]);
    expect(page.text).toBe('Title\n\nBody text');
    expect(page.itemLines).toEqual([0, 0, 1, 2, 0, 0, 3, 0]);
  });

  it('gives line 0 to an item without a string (marked content) and an empty text for a page without text', () => {
    expect(pdfPageText([{ type: 'beginMarkedContent' }, item('A')]).itemLines).toEqual([0, 1]);
    expect(pdfPageText([item(' ', true), { type: 'endMarkedContent' }])).toEqual({
      text: '',
      itemLines: [0, 0],
    });
  });
});
