import type { DatabaseSync } from 'node:sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS requests (
  request_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  payload_hash TEXT NOT NULL,
  run_id TEXT NOT NULL,
  accepted_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL UNIQUE REFERENCES requests(request_id),
  space TEXT NOT NULL,
  session_id TEXT NOT NULL,
  input TEXT NOT NULL,
  status TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  retry_of TEXT REFERENCES runs(run_id),
  target_run_id TEXT REFERENCES runs(run_id),
  prompt_settings TEXT NOT NULL,
  settings_revisions TEXT NOT NULL,
  settings_sources TEXT,
  prompt_sections TEXT,
  error TEXT,
  output TEXT,
  usage TEXT,
  model_settings TEXT,
  model_settings_sources TEXT,
  model TEXT,
  connection TEXT,
  accepted_at TEXT NOT NULL,
  started_at TEXT,
  ended_at TEXT
);
CREATE INDEX IF NOT EXISTS runs_by_session_status ON runs(session_id, status);
CREATE INDEX IF NOT EXISTS runs_by_session ON runs(session_id, accepted_at);
CREATE INDEX IF NOT EXISTS runs_by_status ON runs(status);
CREATE TABLE IF NOT EXISTS run_images (
  run_id TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  PRIMARY KEY (run_id, sha256)
);
CREATE INDEX IF NOT EXISTS run_images_by_hash ON run_images(sha256);
CREATE TABLE IF NOT EXISTS deleted_sessions (
  space TEXT NOT NULL,
  session_id TEXT NOT NULL,
  deleted_at TEXT NOT NULL,
  PRIMARY KEY (space, session_id)
);
`;

/**
 * Creates the ledger's tables in `db`, or adds to an older ledger the columns it lacks (their
 * runs report none of those values).
 */
export function createLedgerSchema(db: DatabaseSync): void {
  db.exec(SCHEMA);
  // Ledgers written before sources were kept lack the column; their runs report none.
  const columns = db.prepare('PRAGMA table_info(runs)').all() as { name: unknown }[];
  if (!columns.some((column) => column.name === 'settings_sources')) {
    db.exec('ALTER TABLE runs ADD COLUMN settings_sources TEXT');
  }
  // Likewise for usage and model settings: older runs report none.
  for (const column of [
    'delivery',
    'resume_of',
    'attached_sources',
    'usage',
    'model_settings',
    'model_settings_sources',
    'model',
    'connection',
    'restricted',
    'history_marked',
    'model_source',
    'thinking_level',
    'citations',
    'approvals',
    'rewound',
  ]) {
    if (!columns.some((known) => known.name === column)) {
      db.exec(`ALTER TABLE runs ADD COLUMN ${column} TEXT`);
    }
  }
}
