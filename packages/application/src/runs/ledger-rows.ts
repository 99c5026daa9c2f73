import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { RunInfo, RunStatus } from '@repa/protocol';
import type { StoredInput } from './run-images.js';

/** A row of the ledger as `node:sqlite` returns it. */
export type Row = Record<string, string | number | null>;

// Every run with, for a queued run not started yet, its place in its session's queue (from 1).
export const SELECT_RUNS = `SELECT runs.*, CASE WHEN runs.status = 'accepted' AND runs.delivery = 'queue'
  THEN (SELECT COUNT(*) FROM runs q WHERE q.session_id = runs.session_id AND q.space = runs.space
    AND q.status = 'accepted' AND q.delivery = 'queue' AND q.rowid <= runs.rowid)
  END AS queue_position FROM runs`;

/** SQL that leaves out the runs of sessions being deleted (a `WHERE` condition on `runs`). */
const NOT_DELETED = `NOT EXISTS (SELECT 1 FROM deleted_sessions d
  WHERE d.space = runs.space AND d.session_id = runs.session_id)`;

/** Which runs {@link selectRuns} answers; `limit` from 1 to 1000 (default 50). */
export interface RunFilter {
  space?: string | undefined;
  sessionId?: string | undefined;
  status?: RunStatus | undefined;
  limit?: number | undefined;
  /** Only runs whose id starts with this. */
  idPrefix?: string | undefined;
  /** False: no steer or follow-up message (a run of its own only). */
  deliveries?: boolean | undefined;
}

/** The runs of the ledger that match `filter`, newest first (none of a session being deleted). */
export function selectRuns(db: DatabaseSync, filter: RunFilter): RunInfo[] {
  const where: string[] = [NOT_DELETED];
  const values: (string | number)[] = [];
  const equal = { space: filter.space, session_id: filter.sessionId, status: filter.status };
  for (const [column, value] of Object.entries(equal)) {
    if (!value) continue;
    where.push(`${column} = ?`);
    values.push(value);
  }
  if (filter.idPrefix !== undefined) {
    where.push('substr(run_id, 1, ?) = ?');
    values.push(filter.idPrefix.length, filter.idPrefix);
  }
  if (filter.deliveries === false) where.push('target_run_id IS NULL');
  const sql = `${SELECT_RUNS} WHERE ${where.join(' AND ')}
    ORDER BY accepted_at DESC, rowid DESC LIMIT ${Math.max(1, Math.min(filter.limit ?? 50, 1000))}`;
  return (db.prepare(sql).all(...values) as Row[]).map(rowToRun);
}

/** A `runs` row (selected with {@link SELECT_RUNS}) as the protocol's `RunInfo`. */
export function rowToRun(row: Row): RunInfo {
  const optional = <T>(key: string, map: (value: string) => T = (value) => value as T) =>
    row[key] === null || row[key] === undefined ? undefined : map(String(row[key]));
  const run: RunInfo = {
    runId: String(row.run_id),
    requestId: String(row.request_id),
    space: String(row.space),
    sessionId: String(row.session_id),
    input: inputView(JSON.parse(String(row.input))),
    status: String(row.status) as RunStatus,
    attempt: Number(row.attempt),
    promptSettings: JSON.parse(String(row.prompt_settings)),
    settingsRevisions: JSON.parse(String(row.settings_revisions)),
    acceptedAt: String(row.accepted_at),
  };
  const extras = {
    retryOf: optional('retry_of'),
    resumeOf: optional('resume_of'),
    delivery: optional('delivery'),
    queuePosition: optional('queue_position', Number),
    targetRunId: optional('target_run_id'),
    attachedSources: optional('attached_sources', JSON.parse),
    settingsSources: optional('settings_sources', JSON.parse),
    promptSections: optional('prompt_sections', JSON.parse),
    error: optional('error', JSON.parse),
    output: optional('output'),
    usage: optional('usage', JSON.parse),
    modelSettings: optional('model_settings', JSON.parse),
    modelSettingsSources: optional('model_settings_sources', JSON.parse),
    model: optional('model'),
    modelSource: optional('model_source'),
    thinkingLevel: optional('thinking_level'),
    connection: optional('connection'),
    restricted: optional('restricted', JSON.parse),
    citations: optional('citations', JSON.parse),
    approvals: optional('approvals', JSON.parse),
    rewound: optional('rewound', JSON.parse),
    startedAt: optional('started_at'),
    endedAt: optional('ended_at'),
  };
  for (const [key, value] of Object.entries(extras)) {
    if (value !== undefined) Object.assign(run, { [key]: value });
  }
  return run;
}

/** The input as run records show it: inline image bytes are left out (the ledger keeps them). */
function inputView(input: StoredInput): RunInfo['input'] {
  const view: RunInfo['input'] = { type: input.type, text: input.text };
  if (input.images) {
    view.images = input.images.map((image) =>
      image.kind === 'file'
        ? { kind: 'file', path: image.path }
        : {
            kind: 'data',
            mimeType: image.mimeType,
            bytes: 'sha256' in image ? image.bytes : Buffer.byteLength(image.data, 'base64'),
          },
    );
  }
  if (input.attachments) view.attachments = input.attachments.map(({ path }) => ({ path }));
  return view;
}

/** The hash a request id is bound to (spec R21): what the request asks for. */
export function payloadHash(request: {
  space: string;
  sessionId: string;
  input: unknown;
  retryOf?: string;
  overrides?: object;
  delivery?: string;
  resumeOf?: string;
}): string {
  const { space, sessionId, input, retryOf, overrides, delivery, resumeOf } = request;
  // Overrides, delivery and resumption count only when given, so requests hashed before they
  // existed keep their hash.
  const extra = {
    ...(overrides && Object.keys(overrides).length > 0 ? { overrides } : {}),
    ...(delivery && delivery !== 'new' ? { delivery } : {}),
    ...(resumeOf ? { resumeOf } : {}),
  };
  return createHash('sha256')
    .update(JSON.stringify({ space, sessionId, input, retryOf: retryOf ?? null, ...extra }))
    .digest('hex');
}
