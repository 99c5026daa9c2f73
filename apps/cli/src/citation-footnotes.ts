import { type Citation, citationPlace } from '@repa/protocol';

/** Why a citation is not verified, in words. */
const REASONS: Record<Exclude<Citation['status'], 'verified'>, string> = {
  quote_not_found: 'quote not in those lines',
  range_outside: 'lines past the end',
  not_read: 'not read in this conversation',
  unknown_document: 'no such document',
};

/**
 * An answer's citations as footnotes: `[1] notes/tides.md, lines 12–18 ✓` (`[2] book.pdf p. 4, lines 3–9 ✓`
 * for a page), an unverified one marked
 * `✗` with the reason, and `(changed since)` when the document changed from the version read.
 */
export function citationFootnotes(citations: readonly Citation[]): string[] {
  return citations.map((citation) => {
    const where = citationPlace(citation);
    const mark = citation.status === 'verified' ? '✓' : `✗ ${REASONS[citation.status]}`;
    const changed = citation.changedSince ? ' (changed since)' : '';
    return `[${citation.index}] ${where} ${mark}${changed}`;
  });
}
