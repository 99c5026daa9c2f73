import type { DatabaseSync } from 'node:sqlite';
import type { Row } from './ledger-rows.js';

const CHUNK = 500;

/** Runs `statement` (with one `(?…)` list) over `ids` in chunks. */
function inChunks(db: DatabaseSync, statement: string, ids: readonly string[]): void {
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    db.prepare(statement.replace('(?…)', `(${chunk.map(() => '?').join(',')})`)).run(...chunk);
  }
}

/**
 * Removes runs with their requests and image uses, in one transaction. Contract: no run left in
 * the ledger refers to one of `ids` (as a retry, a resumption or a delivery target).
 */
export function removeRuns(db: DatabaseSync, ids: readonly string[], after?: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    inChunks(db, 'DELETE FROM run_images WHERE run_id IN (?…)', ids);
    inChunks(db, 'DELETE FROM runs WHERE run_id IN (?…)', ids);
    inChunks(db, 'DELETE FROM requests WHERE run_id IN (?…)', ids);
    after?.();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * The ended runs that ended before `cutoff` (ISO time), of `space` when given, which no run kept
 * refers to: a retry, resumption or delivery keeps the run it points at.
 */
export function prunableRuns(db: DatabaseSync, cutoff: string, space?: string): string[] {
  const rows = db
    .prepare(
      `SELECT run_id FROM runs WHERE status NOT IN ('accepted', 'running')
         AND ended_at IS NOT NULL AND ended_at < ? ${space === undefined ? '' : 'AND space = ?'}`,
    )
    .all(...(space === undefined ? [cutoff] : [cutoff, space])) as Row[];
  const chosen = new Set(rows.map((row) => String(row.run_id)));
  const links = db
    .prepare(
      `SELECT run_id, retry_of, resume_of, target_run_id FROM runs
         WHERE retry_of IS NOT NULL OR resume_of IS NOT NULL OR target_run_id IS NOT NULL`,
    )
    .all() as Row[];
  for (let changed = true; changed; ) {
    changed = false;
    for (const link of links) {
      if (chosen.has(String(link.run_id))) continue;
      for (const target of [link.retry_of, link.resume_of, link.target_run_id]) {
        if (target !== null && chosen.delete(String(target))) changed = true;
      }
    }
  }
  return [...chosen];
}

/** The sha256 of every stored image a run of the ledger uses. */
export function usedImages(db: DatabaseSync): Set<string> {
  const rows = db.prepare('SELECT DISTINCT sha256 FROM run_images').all() as Row[];
  return new Set(rows.map((row) => String(row.sha256)));
}

/** Marks a session as being deleted: its runs are left out of listings from now on. */
export function markSessionDeleting(db: DatabaseSync, space: string, sessionId: string): void {
  db.prepare(
    'INSERT OR IGNORE INTO deleted_sessions (space, session_id, deleted_at) VALUES (?, ?, ?)',
  ).run(space, sessionId, new Date().toISOString());
}

/** Takes a session's deletion mark away. */
export function unmarkSessionDeleting(db: DatabaseSync, space: string, sessionId: string): void {
  db.prepare('DELETE FROM deleted_sessions WHERE space = ? AND session_id = ?').run(
    space,
    sessionId,
  );
}

/** The sessions marked as being deleted. */
export function sessionsDeleting(db: DatabaseSync): { space: string; sessionId: string }[] {
  const rows = db.prepare('SELECT space, session_id FROM deleted_sessions').all() as Row[];
  return rows.map((row) => ({ space: String(row.space), sessionId: String(row.session_id) }));
}
