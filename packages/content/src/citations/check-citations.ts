import type { Citation, CitationStatus } from '@repa/protocol';
import type { ParsedCitation } from './parse-citations.js';

/** Lines of one document version a run was shown (one `read` result). */
export interface CitationReading {
  /** Path relative to the space root (absolute for an outside material). */
  target: string;
  /** The document's identity. */
  identity: string;
  /** The version (sha256) of the whole file the lines come from. */
  version: string;
  /** The page the lines are from, for paged documents (absent for text). */
  page?: number;
  /** The number of the first line shown, from 1. */
  firstLine: number;
  /** The lines shown, in order, without line endings. */
  lines: readonly string[];
  /** How many lines that version (or page) has; absent when unknown (a page shown cut short). */
  totalLines?: number;
}

/** Where a cited document is now, for citations of a document no reading names. */
export interface CitedDocument {
  /** Path relative to the space root. */
  target: string;
  /** The document's identity. */
  identity: string;
}

/** The longest excerpt of cited lines kept with a citation (characters). */
const EXCERPT_CHARS = 280;
/** The most cited lines an excerpt shows. */
const EXCERPT_LINES = 4;

/** Whitespace and line breaks count as one space; everything else must match exactly. */
const squeeze = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim();

function excerptOf(lines: readonly string[]): string {
  const shown = lines.slice(0, EXCERPT_LINES).join('\n');
  const cut = shown.length > EXCERPT_CHARS || lines.length > EXCERPT_LINES;
  return cut ? `${shown.slice(0, EXCERPT_CHARS).trimEnd()}…` : shown;
}

/** The lines of one document version the run saw, by line number. */
interface SeenVersion {
  target: string;
  identity: string;
  version: string;
  totalLines?: number;
  lines: Map<number, string>;
}

/**
 * Per identity and page, what the readings showed of the version of its last reading (earlier
 * readings of another version no longer stand for the document).
 */
function seenVersions(readings: readonly CitationReading[]): Map<string, SeenVersion> {
  const seen = new Map<string, SeenVersion>();
  for (const reading of readings) {
    const key = `${reading.identity}#${reading.page ?? ''}`;
    let version = seen.get(key);
    if (version === undefined || version.version !== reading.version) {
      version = {
        target: reading.target,
        identity: reading.identity,
        version: reading.version,
        lines: new Map(),
      };
      seen.set(key, version);
    }
    version.target = reading.target;
    if (reading.totalLines !== undefined) version.totalLines = reading.totalLines;
    reading.lines.forEach((line, index) => {
      version.lines.set(reading.firstLine + index, line);
    });
  }
  return seen;
}

/**
 * Checks parsed citations against what a run read (pure; spec R60): the document was read, the
 * range exists in the version read, every cited line was shown, and a quote occurs in the cited
 * lines (whitespace- and line-break-insensitive, exact otherwise). `documents` says where each
 * cited document that was not matched by a reading's path or identity is (`null`: no such
 * document); a document it does not name is `not_read`.
 */
export function checkCitations(
  citations: readonly ParsedCitation[],
  readings: readonly CitationReading[],
  documents: ReadonlyMap<string, CitedDocument | null> = new Map(),
): Citation[] {
  if (citations.length === 0) return [];
  // Only the readings of cited documents are indexed (an answer cites few of what was read).
  const cited = new Set<string>();
  for (const { document } of citations) {
    cited.add(document);
    const located = documents.get(document)?.identity;
    if (located !== undefined) cited.add(located);
  }
  const seen = seenVersions(
    readings.filter((reading) => cited.has(reading.target) || cited.has(reading.identity)),
  );
  const byTarget = new Map<string, string>();
  for (const version of seen.values()) byTarget.set(version.target, version.identity);
  return citations.map((cited, position) => {
    const base = {
      index: position + 1,
      text: cited.text,
      offset: cited.offset,
      document: cited.document,
      ...(cited.page === undefined ? {} : { page: cited.page }),
      startLine: cited.startLine,
      endLine: cited.endLine,
      ...(cited.quote === undefined ? {} : { quote: cited.quote }),
    };
    const located = documents.get(cited.document);
    const identity = cited.document.startsWith('repa:')
      ? cited.document
      : (byTarget.get(cited.document) ?? located?.identity);
    const version =
      identity === undefined ? undefined : seen.get(`${identity}#${cited.page ?? ''}`);
    if (version === undefined) {
      if (located === null) return { ...base, status: 'unknown_document' as const };
      const where = located ?? undefined;
      return {
        ...base,
        ...(where ? { target: where.target, identity: where.identity } : {}),
        status: 'not_read' as const,
      };
    }
    const found = {
      ...base,
      target: version.target,
      identity: version.identity,
      version: version.version,
    };
    const { startLine, endLine } = cited;
    const past = version.totalLines !== undefined && endLine > version.totalLines;
    if (startLine < 1 || endLine < startLine || past) {
      return { ...found, status: 'range_outside' as const };
    }
    const lines: string[] = [];
    for (let line = startLine; line <= endLine; line++) {
      const text = version.lines.get(line);
      if (text === undefined) return { ...found, status: 'not_read' as const };
      lines.push(text);
    }
    const status: CitationStatus =
      cited.quote === undefined || squeeze(lines.join('\n')).includes(squeeze(cited.quote))
        ? 'verified'
        : 'quote_not_found';
    return { ...found, status, excerpt: excerptOf(lines) };
  });
}
