import type { CitationReading } from './check-citations.js';

/** The facts of a `read` result a reading is made from (`ContentReadDetails`). */
interface ReadFacts {
  target: string;
  identity: string;
  version: string;
  firstLine: number;
  lineCount: number;
  totalLines: number;
  /** For a document of pages or chapters: its unit, its parts and the first one `pages` chose. */
  document?: { unit: 'page' | 'chapter'; parts: number; selected?: number };
}

/** A receipt or file change: a document's version as the conversation last knew it. */
interface VersionFact {
  identity?: string;
  target: string;
  version: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function documentOf(document: unknown): ReadFacts['document'] {
  if (!isObject(document) || typeof document.parts !== 'number') return undefined;
  const { unit, parts, shown } = document;
  if (unit !== 'page' && unit !== 'chapter') return undefined;
  const selected = isObject(shown) && typeof shown.first === 'number' ? shown.first : undefined;
  return { unit, parts, ...(selected === undefined ? {} : { selected }) };
}

function readFactsOf(details: unknown): ReadFacts | undefined {
  if (!isObject(details)) return undefined;
  const { target, identity, version, firstLine, lineCount, totalLines } = details;
  if (typeof target !== 'string' || typeof identity !== 'string' || typeof version !== 'string') {
    return undefined;
  }
  if (details.skill === true) return undefined;
  if (typeof firstLine !== 'number' || typeof lineCount !== 'number') return undefined;
  if (typeof totalLines !== 'number') return undefined;
  const document = documentOf(details.document);
  return {
    target,
    identity,
    version,
    firstLine,
    lineCount,
    totalLines,
    ...(document === undefined ? {} : { document }),
  };
}

function versionFactsOf(list: unknown): VersionFact[] {
  if (!Array.isArray(list)) return [];
  return list.filter(
    (item): item is VersionFact =>
      isObject(item) &&
      typeof item.target === 'string' &&
      (typeof item.version === 'string' || item.version === null),
  );
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === 'string' ? content : '';
  const first = content.find((part) => isObject(part) && part.type === 'text');
  return isObject(first) && typeof first.text === 'string' ? first.text : '';
}

// A page's (or chapter's) marker line: `[Page 3 of 12]`, `[Chapter 2 of 9: Title]`, …
const MARKER = /^\[(Page|Chapter) (\d{1,9}) of (\d{1,9})(?:[:\s].*)?\]$/u;

/**
 * The readings per page (or chapter) of the lines a document's read showed, split at the marker
 * lines: line 1 of a page is the line after its marker, and a page shown to its end (the next
 * marker, or the end of the text) has a known line count. Lines before the first marker belong to
 * a page the window cut into, whose line numbers are unknown: they make no reading. A marker is a
 * line of the unit's form naming the document's part count, after a blank line (every marker but
 * the text's first is), numbered one after the last (from the first page `pages` chose, when the
 * text begins at its line 1): text that merely looks like a marker rarely passes all three.
 */
function pageReadings(
  facts: ReadFacts & { document: NonNullable<ReadFacts['document']> },
  lines: readonly string[],
): CitationReading[] {
  const { document } = facts;
  const name = document.unit === 'page' ? 'Page' : 'Chapter';
  let expected = facts.firstLine === 1 ? (document.selected ?? 1) : undefined;
  const markers: { page: number; index: number }[] = [];
  lines.forEach((line, index) => {
    const marker = MARKER.exec(line);
    if (!marker || marker[1] !== name || Number(marker[3]) !== document.parts) return;
    const page = Number(marker[2]);
    if ((expected !== undefined && page !== expected) || (index > 0 && lines[index - 1] !== '')) {
      return;
    }
    markers.push({ page, index });
    expected = page + 1;
  });
  const toTheEnd = facts.firstLine + lines.length - 1 >= facts.totalLines;
  return markers.map(({ page, index }, position) => {
    const next = markers[position + 1];
    // The blank line before the next marker separates the pages: it is no page's.
    let shown = lines.slice(index + 1, next === undefined ? lines.length : next.index - 1);
    const whole = next !== undefined || toTheEnd;
    // A cut page's last blank line may be that separator.
    if (!whole && shown.at(-1) === '') shown = shown.slice(0, -1);
    return {
      target: facts.target,
      identity: facts.identity,
      version: facts.version,
      page,
      firstLine: 1,
      lines: shown,
      ...(whole ? { totalLines: shown.length } : {}),
    };
  });
}

/** The readings one `read` result makes of the lines it showed. */
function readingsOfRead(facts: ReadFacts, lines: readonly string[]): CitationReading[] {
  const readings: CitationReading[] = [];
  const { document } = facts;
  // A selection's lines are its own, not the document's: only its pages are cited by line.
  if (document?.selected === undefined) {
    readings.push({
      target: facts.target,
      identity: facts.identity,
      version: facts.version,
      firstLine: facts.firstLine,
      lines,
      totalLines: facts.totalLines,
    });
  }
  if (document !== undefined) readings.push(...pageReadings({ ...facts, document }, lines));
  return readings;
}

/**
 * The readings of a document's whole text (UTF-8 text, or a document's marked text with its
 * unit and part count), as a `read` of all of it would show them: one of all its lines and, for
 * a document of pages or chapters, one per page.
 */
export function wholeTextReadings(source: {
  target: string;
  identity: string;
  version: string;
  text: string;
  document?: { unit?: 'page' | 'chapter' | undefined; parts: number } | undefined;
}): CitationReading[] {
  const lines = source.text.split('\n').map((line) => line.replace(/\r$/, ''));
  const { unit, parts = 0 } = source.document ?? {};
  return readingsOfRead(
    {
      target: source.target,
      identity: source.identity,
      version: source.version,
      firstLine: 1,
      lineCount: lines.length,
      totalLines: lines.length,
      ...(unit === undefined ? {} : { document: { unit, parts } }),
    },
    lines,
  );
}

/**
 * What a conversation's `read` results showed of each document (spec R60, R64), from Pi's
 * messages in order: a reading per text window, at the version the read saw, and for a document
 * of pages (or chapters) a reading per page it showed (line 1 is the line after the page's
 * `[Page n of N]` line). A later save (a tool's receipts) or a file-change notice that moves a
 * document to another version drops its earlier readings: they no longer stand for what the
 * document says.
 */
export function citationReadings(messages: readonly unknown[]): CitationReading[] {
  let readings: CitationReading[] = [];
  const moved = (facts: VersionFact[]) => {
    if (facts.length === 0) return;
    readings = readings.filter(
      (reading) =>
        !facts.some(
          (fact) =>
            (fact.identity === reading.identity || fact.target === reading.target) &&
            fact.version !== reading.version,
        ),
    );
  };
  for (const message of messages) {
    if (!isObject(message)) continue;
    const { details } = message;
    if (message.role === 'toolResult' && isObject(details)) {
      moved(versionFactsOf(details.receipts));
      const facts = message.isError === true ? undefined : readFactsOf(details);
      if (facts === undefined || message.toolName !== 'read') continue;
      const lines = textOf(message.content)
        .split('\n', facts.lineCount)
        .map((line) => line.replace(/\r$/, ''));
      if (lines.length < facts.lineCount) continue;
      moved([facts]);
      readings.push(...readingsOfRead(facts, lines));
    } else if (message.role === 'custom' && isObject(details)) {
      moved(versionFactsOf(details.changes));
    }
  }
  return readings;
}
