import { CURRENT_SESSION_VERSION, type FileEntry } from '@earendil-works/pi-coding-agent';
import { z } from 'zod';

/** The header line of a Pi session file this version continues without migrating it. */
export const sessionHeaderSchema = z.looseObject({
  type: z.literal('session'),
  version: z.literal(CURRENT_SESSION_VERSION),
  id: z.string().min(1),
  timestamp: z.string(),
  cwd: z.string(),
});

const entrySchema = z.looseObject({
  type: z.string().min(1),
  id: z.string().min(1),
  parentId: z.string().nullable(),
});

/** What {@link checkSessionFile} found. */
export interface SessionFileCheck {
  /** The session id from the header. */
  sessionId: string;
  /** Entries with a valid id and parent. */
  entries: number;
  /** True when the last line has no newline (a torn write); {@link openSessionFile} repairs it. */
  tornLastLine: boolean;
}

/** Where the readable history of a damaged file ends: its last entry before the damage. */
export interface IntactPrefix {
  /** The id of the last entry whose whole parent chain is intact. */
  entryId: string;
  /** The 1-based line it is on: the first `line` lines are a sound session file. */
  line: number;
}

/** What is wrong with a session file's bytes. */
export interface SessionFileProblem {
  /** The problem, as a clause of "Session file … is damaged: <problem>." */
  problem: string;
  /** Facts for `details` (the damaged line, how many entries lose their parent chain). */
  details?: Record<string, unknown>;
  /** The history that stays readable when the file is cut before the damage. */
  intact?: IntactPrefix;
}

/** How long parsing runs before it yields the event loop. */
const YIELD_MS = 10;

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One parsed line: its 1-based number and value (lines that do not parse are skipped, as Pi does). */
interface ParsedLine {
  line: number;
  value: unknown;
}

/**
 * Parses the lines of `bytes[start, end)` (`firstLine` is the number of the one at `start`), line
 * by line without decoding the whole file into one string, yielding the event loop every 10 ms.
 */
async function parseLines(
  bytes: Buffer,
  start: number,
  end: number,
  firstLine: number,
): Promise<ParsedLine[]> {
  const parsed: ParsedLine[] = [];
  let since = performance.now();
  let line = firstLine;
  for (let at = start; at < end; line++) {
    const newline = bytes.indexOf(10, at);
    const stop = newline === -1 || newline > end ? end : newline;
    const text = bytes.toString('utf8', at, stop);
    at = stop + 1;
    if (text.trim() === '') continue;
    try {
      parsed.push({ line, value: JSON.parse(text) });
    } catch {
      // Skipped like Pi does (a torn line from an earlier crash); real damage shows up as a broken
      // parent chain, because nothing valid can point to a line that does not parse. An
      // unreadable first line makes the first parsed line fail as a header.
    }
    if (performance.now() - since > YIELD_MS) {
      await yieldLoop();
      since = performance.now();
    }
  }
  return parsed;
}

/** The number of the line holding byte `offset` (1-based). */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(10); at !== -1 && at < offset; at = bytes.indexOf(10, at + 1)) line++;
  return line;
}

/**
 * Checks the bytes of a Pi session file: the check and entries of a sound file, or what is wrong.
 * Bounded in time by the file's size (which the caller bounds) and yielding every 10 ms.
 */
export async function inspectSessionBytes(
  bytes: Buffer,
): Promise<SessionFileProblem | { check: SessionFileCheck; entries: FileEntry[] }> {
  // JSON text never holds a raw NUL; NULs are blocks a crash never wrote (e.g. after a power loss).
  const nul = bytes.indexOf(0);
  if (nul !== -1) return describeNuls(bytes, nul);
  const parsed = await parseLines(bytes, 0, bytes.length, 1);
  const [first, ...rest] = parsed.map((item) => item.value);
  const header = sessionHeaderSchema.safeParse(first);
  if (!header.success) {
    const problem = header.error.issues
      .map((issue) => `header ${issue.path.join('.') || '(line)'}: ${issue.message}`)
      .join('; ');
    return { problem };
  }
  const seen = new Set<string>();
  for (const [index, raw] of rest.entries()) {
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) return { problem: `entry ${index + 1} has no valid id/parentId` };
    const { id, parentId } = entry.data;
    if (parentId !== null && !seen.has(parentId)) {
      return { problem: `entry ${id} points to a missing parent ${parentId}` };
    }
    seen.add(id);
  }
  return {
    check: {
      sessionId: header.data.id,
      entries: rest.length,
      tornLastLine: bytes.length > 0 && bytes[bytes.length - 1] !== 10,
    },
    entries: parsed.map((item) => item.value) as FileEntry[],
  };
}

/**
 * Names the line NUL bytes damaged, how many entries after it lose their parent chain (an entry
 * whose parent, or an ancestor's, was on that line), and the last entry before it: where the
 * readable history ends.
 */
async function describeNuls(bytes: Buffer, nul: number): Promise<SessionFileProblem> {
  const lineStart = bytes.lastIndexOf(10, nul) + 1;
  const line = lineAt(bytes, lineStart);
  const nextNewline = bytes.indexOf(10, nul);
  const never = `line ${line} holds NUL bytes from byte ${nul}, data that was never written`;
  if (line === 1) {
    return {
      problem: `${never}; it is the header, so no entry of the session can be read`,
      details: { line, offset: nul },
    };
  }
  const before = await parseLines(bytes, 0, lineStart, 1);
  const after =
    nextNewline === -1 ? [] : await parseLines(bytes, nextNewline + 1, bytes.length, line + 1);
  const known = new Set<string>();
  let last: IntactPrefix | undefined;
  for (const { line: at, value } of before.slice(1)) {
    const entry = entrySchema.safeParse(value);
    if (!entry.success) continue;
    const { id, parentId } = entry.data;
    if (parentId !== null && !known.has(parentId)) continue;
    known.add(id);
    last = { entryId: id, line: at };
  }
  let cutOff = 0;
  let entriesAfter = 0;
  for (const { value } of after) {
    const entry = entrySchema.safeParse(value);
    if (!entry.success) continue;
    entriesAfter++;
    const { id, parentId } = entry.data;
    if (parentId === null || known.has(parentId)) known.add(id);
    else cutOff++;
  }
  const lost =
    entriesAfter === 0
      ? 'no entry follows it'
      : `${cutOff} of the ${entriesAfter} entries after it lose their parent chain`;
  const ends =
    last === undefined
      ? 'no entry before it is readable'
      : `the readable history ends at entry ${last.entryId} (line ${last.line})`;
  return {
    problem: `${never}; ${lost}; ${ends}`,
    details: {
      line,
      offset: nul,
      entriesAfter,
      entriesCutOff: cutOff,
      ...(last ? { lastIntactEntry: last.entryId, lastIntactLine: last.line } : {}),
    },
    ...(last ? { intact: last } : {}),
  };
}
