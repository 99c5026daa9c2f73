import { makePdf } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { contentKindOf, refuseDocumentSave } from './index.js';

describe('refuseDocumentSave', () => {
  it('refuses saving over a document, or a new file named as a binary document', () => {
    expect(() => refuseDocumentSave('a.pdf', makePdf([{ lines: ['page'] }]))).toThrow(/a PDF/u);
    expect(() => refuseDocumentSave('new.docx', null)).toThrow(/Word document/u);
    expect(() => refuseDocumentSave('notes.md', Buffer.from('text'))).not.toThrow();
    expect(() => refuseDocumentSave('page.html', null)).not.toThrow();
  });

  it('names HTML a document only by its extension', () => {
    expect(contentKindOf(Buffer.from('<html></html>'), 'a.html')).toEqual({
      kind: 'document',
      format: 'html',
    });
    expect(contentKindOf(Buffer.from('<html></html>'), 'a.md')).toEqual({ kind: 'text' });
  });
});
