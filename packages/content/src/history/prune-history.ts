import { join } from 'node:path';
import { realDirExists } from '../files/index.js';
import { MAX_SAVE_RECORDS, type SaveHistory } from './save-history.js';

/** The bounds of a space's kept history (the `history.*` settings). */
export interface HistoryLimits {
  /** The most bytes of kept files; past it the least recently used are evicted first. */
  maxBytes: number;
  /** How long records and kept bytes stay (milliseconds). */
  maxAgeMs: number;
}

/** What one pruning removed. */
export interface PruneReport {
  /** Save records removed (older than the age limit, or past the record limit). */
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
 * Evicts, oldest first, what the limits no longer allow: records older than `maxAgeMs` (with
 * them, the bytes no remaining record names), then kept bytes by the time of the newest save that
 * named them until the rest fit in `maxBytes` — their records stay, so a rewind that needed them
 * says `history_evicted`. Kept files no record names (a save rolled back after keeping) go too.
 * Runs under the space's lock (no save in flight).
 */
export async function pruneHistory(
  history: SaveHistory,
  limits: HistoryLimits,
  now = Date.now(),
): Promise<PruneReport> {
  const { fs } = history.space;
  const report: PruneReport = { records: 0, files: 0, bytes: 0, keptBytes: 0 };
  // Newest first by the time each record was written; past the record limit, unread.
  const names: { name: string; path: string; written: number }[] = [];
  for (const name of await history.recordNames()) {
    const path = join(history.savesDir, name);
    const stats = await fs.lstat(path).catch(() => undefined);
    names.push({ name, path, written: stats?.isFile() ? Number(stats.mtimeMs) : 0 });
  }
  names.sort((a, b) => b.written - a.written);
  // When each kept version was last named by a record that stays.
  const lastUse = new Map<string, number>();
  for (const [index, { name, path, written }] of names.entries()) {
    const record =
      index < MAX_SAVE_RECORDS && written > 0 ? await history.readRecord(name) : undefined;
    const savedAt = record ? Date.parse(record.savedAt) : written;
    if (record === undefined || !(now - savedAt <= limits.maxAgeMs)) {
      // Too old, past the limit, or not a record Repa can read: nothing it names is trusted.
      await fs.unlink(path).catch(() => undefined);
      report.records += 1;
      continue;
    }
    for (const change of record.changes) {
      if (change.kept && change.previousVersion !== null) {
        const known = lastUse.get(change.previousVersion) ?? 0;
        lastUse.set(change.previousVersion, Math.max(known, savedAt));
      }
    }
  }
  if (!(await history.space.repaDirExists()) || !(await realDirExists(fs, history.dir))) {
    return report;
  }
  if (!(await realDirExists(fs, history.bytesDir))) return report;
  const kept: { path: string; size: number; used: number }[] = [];
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
    kept.push({ path, size: Number(stats.size), used });
  }
  kept.sort((a, b) => a.used - b.used);
  let total = kept.reduce((sum, file) => sum + file.size, 0);
  for (const file of kept) {
    if (total <= limits.maxBytes) break;
    await fs.unlink(file.path).catch(() => undefined);
    total -= file.size;
    report.files += 1;
    report.bytes += file.size;
  }
  report.keptBytes = total;
  return report;
}
