import { setImmediate as nextTurn } from 'node:timers/promises';
import { versionSchema } from '@repa/protocol/schemas';
import { z } from 'zod';
import { logChecksum } from '../files/index.js';

/** The log of saves in `.repa/history/`. */
export const SAVES_LOG = 'saves.log';
const LOG_MAGIC = 'repa.saves-log/1';
/** The largest saves log read back (bytes; spec R74): about 200,000 records. */
export const MAX_SAVES_LOG_BYTES = 64 * 1024 * 1024;

const savedChangeSchema = z.object({
  /** Path relative to the space root (checked again before any use, like a tool call's). */
  target: z.string(),
  /** The object's identity, when the change had one (a command's changes may not). */
  identity: z.string().optional(),
  /** The version before the change (`null`: the file did not exist, or a command made it). */
  previousVersion: versionSchema.nullable(),
  /** The version after it (`null`: deleted, or too large to compare). */
  version: versionSchema.nullable(),
  /** Bytes written. */
  bytes: z.number().int().nonnegative(),
  /** Whether the bytes of `previousVersion` were kept when the change was made. */
  kept: z.boolean(),
});

/** One change of a {@link SaveRecord}. */
export type SavedChange = z.infer<typeof savedChangeSchema>;

/**
 * The record of one save (or one `bash` command's changes), a line of `.repa/history/saves.log`
 * appended once the save is on disk: what a diff and a rewind of its run work from.
 */
export const saveRecordSchema = z.object({
  operationId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/u),
  savedAt: z.string(),
  /** `save`: a store save with receipts; `command`: files a command changed, without receipts. */
  kind: z.enum(['save', 'command']),
  changes: z.array(savedChangeSchema),
});

/** The record of one save or command. */
export type SaveRecord = z.infer<typeof saveRecordSchema>;

/** The log's first line. */
export const SAVES_LOG_HEADER = `${LOG_MAGIC}\n`;

/**
 * One record as appended: a newline, then `<crc32> <json>`. The leading newline ends whatever a
 * killed writer left half-written before it, so a torn record costs only itself.
 */
export function recordLine(record: SaveRecord): string {
  const json = JSON.stringify(record);
  return `\n${logChecksum(json)} ${json}`;
}

/**
 * The intact records of a saves log, in the order they were appended, and how many lines were
 * not intact (torn, or not a record); `undefined` when the header is not the log's.
 */
export async function parseSavesLog(
  bytes: Buffer,
): Promise<{ records: SaveRecord[]; damaged: number } | undefined> {
  const lines = bytes.toString('utf8').split('\n');
  if (lines[0] !== LOG_MAGIC) return undefined;
  const records: SaveRecord[] = [];
  let damaged = 0;
  for (const [index, line] of lines.slice(1).entries()) {
    if (index % 4096 === 4095) await nextTurn();
    if (line === '') continue;
    const json = line.slice(9);
    const parsed =
      line[8] === ' ' && line.slice(0, 8) === logChecksum(json)
        ? saveRecordSchema.safeParse(safeJson(json))
        : undefined;
    if (parsed?.success) records.push(parsed.data);
    else damaged += 1;
  }
  return { records, damaged };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
