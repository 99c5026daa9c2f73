import { parseCitationLocation } from '@repa/protocol';

/** One citation as an answer wrote it (the citation grammar is in the protocol's README). */
export interface ParsedCitation {
  /** The citation as written, brackets included. */
  text: string;
  /** Where it starts in the answer, in UTF-16 code units. */
  offset: number;
  /** The document as cited: a path or a `repa:document/…` / `repa:material/…` identity. */
  document: string;
  /** The cited page, for paged documents. */
  page?: number;
  /** First cited line, from 1. */
  startLine: number;
  /** Last cited line. */
  endLine: number;
  /** The quoted words, when the citation quotes. */
  quote?: string;
}

/** The most citations read from one answer; the rest are not checked (a bounded cost). */
export const MAX_CITATIONS = 200;

// A bracket holding no bracket and no line break: every candidate is parsed by `parseInner`.
const CANDIDATE = /\[([^[\]\n]{3,2000})\]/g;
// The quoted words at the end: straight or curly double quotes, no quote mark inside.
const QUOTE = /\s+["\u201C]([^"\u201C\u201D]*)["\u201D]$/u;

function parseInner(inner: string): Omit<ParsedCitation, 'text' | 'offset'> | undefined {
  const quoted = QUOTE.exec(inner);
  const location = parseCitationLocation(quoted ? inner.slice(0, quoted.index) : inner);
  if (!location) return undefined;
  return {
    ...location,
    ...(quoted?.[1] === undefined || quoted[1].trim() === '' ? {} : { quote: quoted[1] }),
  };
}

/**
 * The citations of `answer`, in order (at most {@link MAX_CITATIONS}): each
 * `[document(#pN)?:start(-end)? ("quote")?]` whose document is a path with a `/` or `.`, a path
 * in `<…>`, or a `repa:` identity. Anything else in brackets is text, never a citation.
 */
export function parseCitations(answer: string): ParsedCitation[] {
  const found: ParsedCitation[] = [];
  for (const match of answer.matchAll(CANDIDATE)) {
    const parsed = parseInner(match[1] ?? '');
    if (parsed === undefined) continue;
    found.push({ text: match[0], offset: match.index, ...parsed });
    if (found.length === MAX_CITATIONS) break;
  }
  return found;
}
