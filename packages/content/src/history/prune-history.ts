import { join } from 'node:path';
import { realDirExists, writeRepaFile } from '../files/index.js';
import { MAX_SAVE_RECORDS, type SaveHistory } from './save-history.js';
import { recordLine, SAVES_LOG_HEADER } from './save-record.js';

/** The bounds of a space's kept history (the `history.*` settings). */
export interface HistoryLimits {
  /** The most bytes of kept files; past it the least recently used are evicted first. */
  maxBytes: number;
  /** How long records and kept bytes stay (milliseconds). */
  maxAgeMs: number;
}

/** What one pruning removed. */
export interface PruneReport {
  /** Save records removed (older than the age limit, past the record limit, or not intact). */
  records: number;
  /** Kept files removed. */
  files: number;
  /** Their bytes. */
  bytes: number;
  /** Bytes still kept. */
  keptBytes: number;
}

const VERSION_NAME = /^[0-9a-f]{64}$/u;

/**
 * Evicts, oldest first, what the limits no longer allow: records older than `maxAgeMs` (or past
 * {@link MAX_SAVE_RECORDS}; the log is written anew without them, atomically), the bytes no
 * remaining record names, then kept bytes by the time of the newest save that named them until
 * the rest fit in `maxBytes` — their records stay, so a rewind that needed them says
 * `history_evicted`. Runs under the space's lock (no save in flight).
 */
export async function pruneHistory(
  history: SaveHistory,
  limits: HistoryLimits,
  now = Date.now(),
): Promise<PruneReport> {
  const { fs, repaDir } = history.space;
  const report: PruneReport = { records: 0, files: 0, bytes: 0, keptBytes: 0 };
  const { records, damaged } = await history.all();
  const young = records.filter((record) => now - Date.parse(record.savedAt) <= limits.maxAgeMs);
  const kept = young.slice(Math.max(0, young.length - MAX_SAVE_RECORDS));
  report.records = records.length - kept.length + damaged;
  if (report.records > 0) {
    const text = SAVES_LOG_HEADER + kept.map(recordLine).join('');
    await writeRepaFile(fs, repaDir, history.logPath, text);
  }
  // When each kept version was last named by a record that stays.
  const lastUse = new Map<string, number>();
  for (const record of kept) {
    for (const change of record.changes) {
      if (!change.kept || change.previousVersion === null) continue;
      const known = lastUse.get(change.previousVersion) ?? 0;
      lastUse.set(change.previousVersion, Math.max(known, Date.parse(record.savedAt)));
    }
  }
  if (!(await realDirExists(fs, history.dir)) || !(await realDirExists(fs, history.bytesDir))) {
    return report;
  }
  const files: { path: string; size: number; used: number }[] = [];
  for (const name of await fs.readdir(history.bytesDir)) {
    const path = join(history.bytesDir, name);
    const stats = await fs.lstat(path).catch(() => undefined);
    if (stats === undefined) continue;
    const used = VERSION_NAME.test(name) ? lastUse.get(name) : undefined;
    if (used === undefined || !stats.isFile()) {
      // Named by no record that stays, or not Repa's (a copy's leftover temp file).
      await fs.unlink(path).catch(() => undefined);
      report.files += 1;
      report.bytes += Number(stats.size);
      continue;
    }
    files.push({ path, size: Number(stats.size), used });
  }
  files.sort((a, b) => a.used - b.used);
  let total = files.reduce((sum, file) => sum + file.size, 0);
  for (const file of files) {
    if (total <= limits.maxBytes) break;
    await fs.unlink(file.path).catch(() => undefined);
    total -= file.size;
    report.files += 1;
    report.bytes += file.size;
  }
  report.keptBytes = total;
  return report;
}
