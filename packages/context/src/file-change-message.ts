import type { FileChange, FileChangeReport, FileChangesMode, SaveReceipt } from '@repa/protocol';

/** The `customType` of Repa's file-change notices (`custom_message` entries, R50). */
export const FILE_CHANGES_CUSTOM_TYPE = 'repa.file-changes';

/** One change message, ready for Pi's `appendCustomMessageEntry`. */
export interface FileChangeMessage {
  /** Always `repa.file-changes`. */
  customType: typeof FILE_CHANGES_CUSTOM_TYPE;
  /** The model-facing text. */
  content: string;
  /** Shown in Pi's TUI. */
  display: boolean;
  /** The mode and the changes told (never sent to the model). */
  details: { mode: FileChangesMode; changes: FileChange[] };
}

/**
 * Builds the one change message of a model request from the content module's report (R50–R53):
 * `null` when the mode is `off` or nothing is left to tell. Changes the agent's own saves already
 * reported are dropped: a change whose new version (or deletion) matches one of `receipts` for the
 * same target or identity. Form by mode: `on-demand` names the files, `notice` adds versions and
 * sizes, `diff` adds the bounded diff or the location hint the report carries.
 */
export function buildFileChangeMessage(
  report: FileChangeReport,
  mode: FileChangesMode,
  options: { receipts?: readonly SaveReceipt[] } = {},
): FileChangeMessage | null {
  if (mode === 'off') return null;
  const receipts = options.receipts ?? [];
  const changes = report.changes.filter(
    (change) => !receipts.some((receipt) => reportedBy(change, receipt)),
  );
  if (changes.length === 0) return null;
  const lines = [
    'Files you read earlier in this space changed on disk since you last saw them.',
    mode === 'on-demand'
      ? 'Read a file again before relying on its content:'
      : 'Re-read a file before editing it:',
  ];
  for (const change of changes) lines.push(...describe(change, mode));
  return {
    customType: FILE_CHANGES_CUSTOM_TYPE,
    content: lines.join('\n'),
    display: true,
    details: { mode, changes },
  };
}

function reportedBy(change: FileChange, receipt: SaveReceipt): boolean {
  const sameObject =
    receipt.target === change.target ||
    (change.identity !== undefined && receipt.identity === change.identity);
  return sameObject && receipt.version === change.version;
}

function describe(change: FileChange, mode: FileChangesMode): string[] {
  if (mode === 'on-demand') return [`- ${change.target} (${change.kind})`];
  const facts: string[] = [
    change.kind,
    change.previousVersion === null ? 'not read before' : `was ${short(change.previousVersion)}`,
  ];
  if (change.version !== null) facts.push(`now ${short(change.version)}`);
  if (change.bytes !== undefined) facts.push(`${change.bytes} bytes`);
  const head = `- ${change.target} (${facts.join('; ')})`;
  if (mode !== 'diff') return [head];
  if (change.form === 'diff' && change.diff) return [head, '```diff', change.diff, '```'];
  if (change.form === 'location' && change.hint) return [`${head}: no diff, ${change.hint}`];
  return [head];
}

function short(version: string): string {
  return `sha256:${version.slice(0, 12)}`;
}
