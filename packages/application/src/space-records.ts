import { DatabaseSync } from 'node:sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS space_sessions (
  space TEXT NOT NULL,
  session_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (space, session_id)
);
CREATE TABLE IF NOT EXISTS space_contexts (
  space TEXT NOT NULL,
  digest TEXT NOT NULL,
  written_at TEXT NOT NULL,
  PRIMARY KEY (space, digest)
);
CREATE TABLE IF NOT EXISTS opened_spaces (
  space TEXT PRIMARY KEY,
  opened_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS named_spaces (
  space TEXT PRIMARY KEY,
  named_at TEXT NOT NULL
);
`;

/** A space the daemon opened, and when it last did. */
export interface OpenedSpace {
  space: string;
  openedAt: string;
}

/**
 * The spaces the daemon opened (the learner's list of spaces), the folders under the home rule the
 * learner named as spaces (design R17), and what Repa itself made in each space, which an
 * untrusted space may still use (spec R13): the sessions it started and the learning contexts it
 * wrote (by digest). Kept beside the run ledger in its SQLite file; a session with a run in the
 * ledger counts as Repa's own too.
 */
export class SpaceRecords {
  readonly #db: DatabaseSync;

  /** Opens the records in the run ledger's file (after the ledger made it). */
  constructor(path: string) {
    this.#db = new DatabaseSync(path);
    this.#db.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;',
    );
    this.#db.exec(SCHEMA);
  }

  /** Records a session Repa started in `space`. */
  addSession(space: string, sessionId: string): void {
    this.#db
      .prepare('INSERT OR IGNORE INTO space_sessions VALUES (?, ?, ?)')
      .run(space, sessionId, new Date().toISOString());
  }

  /** Whether Repa started the session, or ran a request in it. */
  hasSession(space: string, sessionId: string): boolean {
    const row = this.#db
      .prepare(
        `SELECT 1 FROM space_sessions WHERE space = ? AND session_id = ?
         UNION ALL SELECT 1 FROM runs WHERE space = ? AND session_id = ? LIMIT 1`,
      )
      .get(space, sessionId, space, sessionId);
    return row !== undefined;
  }

  /** Records the digest of a learning context Repa wrote in `space`. */
  addContext(space: string, digest: string): void {
    this.#db
      .prepare('INSERT OR IGNORE INTO space_contexts VALUES (?, ?, ?)')
      .run(space, digest, new Date().toISOString());
  }

  /** The digests of every learning context Repa wrote in `space`. */
  contexts(space: string): string[] {
    return this.#db
      .prepare('SELECT digest FROM space_contexts WHERE space = ?')
      .all(space)
      .map((row) => String(row.digest));
  }

  /** Records that the daemon opened `space` now. */
  addOpened(space: string): void {
    this.#db
      .prepare(
        'INSERT INTO opened_spaces VALUES (?, ?) ON CONFLICT (space) DO UPDATE SET opened_at = excluded.opened_at',
      )
      .run(space, new Date().toISOString());
  }

  /** Records that the learner named `space` as a space (`space.open` with `named`). */
  addNamed(space: string): void {
    this.#db
      .prepare('INSERT OR IGNORE INTO named_spaces VALUES (?, ?)')
      .run(space, new Date().toISOString());
  }

  /** Whether the learner named `space` as a space. */
  isNamed(space: string): boolean {
    return this.#db.prepare('SELECT 1 FROM named_spaces WHERE space = ?').get(space) !== undefined;
  }

  /** The spaces the daemon opened, the last opened first. */
  opened(): OpenedSpace[] {
    return this.#db
      .prepare('SELECT space, opened_at FROM opened_spaces ORDER BY opened_at DESC, space')
      .all()
      .map((row) => ({ space: String(row.space), openedAt: String(row.opened_at) }));
  }

  /** Closes the file. */
  close(): void {
    this.#db.close();
  }
}
