import type { CitationReading } from './check-citations.js';

/** The facts of a `read` result a reading is made from (`ContentReadDetails`). */
interface ReadFacts {
  target: string;
  identity: string;
  version: string;
  outside?: boolean;
  skill?: boolean;
  firstLine?: number;
  lineCount?: number;
  totalLines?: number;
}

/** A receipt or file change: a document's version as the conversation last knew it. */
interface VersionFact {
  identity?: string;
  target: string;
  version: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function readFactsOf(details: unknown): ReadFacts | undefined {
  if (!isObject(details)) return undefined;
  const { target, identity, version, firstLine, lineCount, totalLines } = details;
  if (typeof target !== 'string' || typeof identity !== 'string' || typeof version !== 'string') {
    return undefined;
  }
  if (details.skill === true) return undefined;
  if (typeof firstLine !== 'number' || typeof lineCount !== 'number') return undefined;
  if (typeof totalLines !== 'number') return undefined;
  return { target, identity, version, firstLine, lineCount, totalLines };
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

/**
 * What a conversation's `read` results showed of each document (spec R60, R64), from Pi's
 * messages in order: a reading per text window, at the version the read saw. A later save
 * (a tool's receipts) or a file-change notice that moves a document to another version drops
 * its earlier readings: they no longer stand for what the document says.
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
      const lineCount = facts.lineCount ?? 0;
      const lines = textOf(message.content)
        .split('\n', lineCount)
        .map((line) => line.replace(/\r$/, ''));
      if (lines.length < lineCount) continue;
      moved([facts]);
      readings.push({
        target: facts.target,
        identity: facts.identity,
        version: facts.version,
        firstLine: facts.firstLine ?? 1,
        lines,
        totalLines: facts.totalLines ?? 0,
      });
    } else if (message.role === 'custom' && isObject(details)) {
      moved(versionFactsOf(details.changes));
    }
  }
  return readings;
}
