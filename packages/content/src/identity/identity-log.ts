import { setImmediate as nextTurn } from 'node:timers/promises';
import { logChecksum } from '../files/index.js';
import { parseIdentity } from '../space/index.js';

/**
 * The identity log: identities given by reads since the index was last written, one line each,
 * appended in place (see `Identities.assign`).
 */
export const LOG_FILE = 'identities.log';
const LOG_MAGIC = 'repa.identities-log/1';
/** The largest log read back, parsed with a turn of the event loop every 4096 lines (R74). */
export const MAX_LOG_BYTES = 64 * 1024 * 1024;
/** The log's first line, naming the log `logId`. */
export const logHeader = (logId: string) => `${LOG_MAGIC} ${logId}\n`;

/** One entry's line: `<crc32> <json>`. */
export const logLine = (identity: string, target: string) => {
  const json = JSON.stringify({ identity, target });
  return `${logChecksum(json)} ${json}\n`;
};

/** One intact log line's entry (`<crc32> <json>`), or `undefined`. */
function parseLogLine(line: string): { identity: string; target: string } | undefined {
  const json = line.slice(9);
  if (line[8] !== ' ' || line.slice(0, 8) !== logChecksum(json)) return undefined;
  try {
    const { identity, target } = JSON.parse(json) as { identity?: unknown; target?: unknown };
    if (typeof identity !== 'string' || parseIdentity(identity) === undefined) return undefined;
    if (typeof target !== 'string' || target.length === 0) return undefined;
    return { identity, target };
  } catch {
    return undefined;
  }
}

/** The identity log as read: its id and its intact entries, in order. */
export interface LogContent {
  id: string;
  entries: { identity: string; target: string }[];
  /** Bytes up to the end of the last intact line (less than the file when a write was cut short). */
  intact: number;
  size: number;
}

/**
 * The log's id and its entries up to the first line that is not intact (a write a power loss cut
 * short); `undefined` when its header is not one (it is then started anew before the next entry).
 */
export async function parseLog(bytes: Buffer): Promise<LogContent | undefined> {
  const text = bytes.toString('utf8');
  const size = bytes.length;
  // The last element is what follows the last newline: an unfinished line, never an entry.
  const lines = text.split('\n');
  const [magic, id] = (lines[0] ?? '').split(' ');
  if (lines.length < 2 || magic !== LOG_MAGIC || id === undefined || !/^[0-9a-f-]{36}$/u.test(id))
    return undefined;
  const entries: LogContent['entries'] = [];
  let intact = Buffer.byteLength(lines[0] ?? '', 'utf8') + 1;
  for (const [index, line] of lines.slice(1, -1).entries()) {
    const entry = parseLogLine(line);
    if (entry === undefined) break;
    entries.push(entry);
    intact += Buffer.byteLength(line, 'utf8') + 1;
    if (index % 4096 === 4095) await nextTurn();
  }
  return { id, entries, intact, size };
}
