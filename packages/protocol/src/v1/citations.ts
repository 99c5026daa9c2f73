import { z } from 'zod';
import type { Citation } from './wire-types.generated.js';

/**
 * What checking one citation found (spec R60): `verified` (the run read the cited lines of that
 * version and a quote occurs in them), `quote_not_found`, `range_outside` (lines past the end of
 * the version read), `not_read` (the run never saw that passage) or `unknown_document`.
 */
export const citationStatusSchema = z
  .enum(['verified', 'quote_not_found', 'range_outside', 'not_read', 'unknown_document'])
  .meta({
    id: 'CitationStatus',
    description:
      'What checking one citation found: `verified`, `quote_not_found`, `range_outside` (lines past the end of the version read), `not_read` (the run never saw that passage) or `unknown_document`.',
  });

/** One citation of an answer, as written and as checked against what the run read. */
export const citationSchema = z
  .looseObject({
    index: z.number().int().positive().describe('Its number in the answer, from 1 (footnote).'),
    text: z.string().describe('The citation as the answer wrote it, brackets included.'),
    offset: z
      .number()
      .int()
      .nonnegative()
      .describe('Where it starts in the answer, in UTF-16 code units.'),
    document: z
      .string()
      .describe(
        'The document as cited: a path or a `repa:document/…` / `repa:material/…` identity.',
      ),
    target: z
      .string()
      .optional()
      .describe("The document's path relative to the space root (absent when unknown)."),
    identity: z.string().optional().describe("The document's identity (absent when unknown)."),
    version: z
      .string()
      .optional()
      .describe('The version (sha256) the run read and the citation was checked against.'),
    page: z.number().int().positive().optional().describe('The cited page, for paged documents.'),
    startLine: z.number().int().positive().describe('First cited line, from 1.'),
    endLine: z
      .number()
      .int()
      .positive()
      .describe('Last cited line (equal to `startLine` for one).'),
    quote: z.string().optional().describe('The quoted words, when the citation quotes.'),
    status: citationStatusSchema.describe('What the check found.'),
    excerpt: z
      .string()
      .optional()
      .describe('The first cited lines of the version read (short; absent when not read).'),
    changedSince: z
      .boolean()
      .optional()
      .describe(
        'True when shown after the document changed from the version read (absent otherwise).',
      ),
  })
  .meta({
    id: 'Citation',
    description: 'One citation of an answer, as written and as checked against what the run read.',
  });

/**
 * Where a citation points, in words: `notes/tides.md, lines 12–18`, `book.pdf p. 4, lines 3–9` for a
 * page, or `book.epub ch. 2, line 3` for an EPUB's chapter (`#p` counts its chapters; the lines
 * counted on that page or chapter).
 */
export function citationPlace(
  citation: Pick<Citation, 'document' | 'target' | 'page' | 'startLine' | 'endLine'>,
): string {
  const one = citation.startLine === citation.endLine;
  const lines = one ? `${citation.startLine}` : `${citation.startLine}–${citation.endLine}`;
  const document = citation.target ?? citation.document;
  const where = `${one ? 'line' : 'lines'} ${lines}`;
  if (!citation.page) return `${document}, ${where}`;
  const unit = /\.epub$/iu.test(document) ? 'ch.' : 'p.';
  return `${document} ${unit} ${citation.page}, ${where}`;
}

/** Why a citation is not verified, in words. */
const REASONS: Record<Exclude<Citation['status'], 'verified'>, string> = {
  quote_not_found: 'quote not in those lines',
  range_outside: 'lines past the end',
  not_read: 'not read in this conversation',
  unknown_document: 'no such document',
};

/**
 * An answer's citation checks as footnotes: `[1] notes/tides.md, lines 12–18 ✓` (`[2] book.pdf p. 4,
 * lines 3–9 ✓` for a page), an unverified one marked `✗` with the reason, and `(changed since)`
 * when the document changed from the version read.
 */
export function citationFootnotes(citations: readonly Citation[]): string[] {
  return citations.map((citation) => {
    const mark = citation.status === 'verified' ? '✓' : `✗ ${REASONS[citation.status]}`;
    const changed = citation.changedSince ? ' (changed since)' : '';
    return `[${citation.index}] ${citationPlace(citation)} ${mark}${changed}`;
  });
}
