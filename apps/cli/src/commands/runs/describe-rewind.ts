import type { RewindFile, RewindResult, RunFileDiff } from '@repa/protocol';
import { changedLines, diffCounts, unifiedLines } from '../../diff-lines.js';
import { paint } from '../../style.js';

const short = (version: string | null | undefined) =>
  version === null || version === undefined ? 'no file' : version.slice(0, 8);

/** What the rewind does (or did) to one file, in a few words. */
function action(file: RewindFile): string {
  switch (file.change) {
    case 'created':
      return `remove ${file.target} (the run created it)`;
    case 'deleted':
      return `put back ${file.target} (the run deleted it)`;
    case 'moved':
      return `move ${file.movedTo} back to ${file.target}`;
    default:
      return `restore ${file.target} to ${short(file.restoreVersion)} (the run made ${short(file.runVersion)})`;
  }
}

/** The tag of a file's line: what will happen, or what happened. */
const TAGS: Record<RewindFile['status'], string> = {
  planned: 'will',
  restored: 'done',
  unchanged: 'as before',
  refused: 'refused',
};

/**
 * A rewind as lines: per file what is (or was) restored and what refused and why, the files a
 * command changed (not rewindable), the conversation, and how to undo the rewind.
 */
export function rewindLines(out: NodeJS.WritableStream, rewind: RewindResult): string[] {
  const lines: string[] = [];
  const title = rewind.preview ? 'Rewinding' : 'Rewound';
  lines.push(`${title} ${rewind.runId}:`);
  if (rewind.files.length === 0) lines.push('  (the run saved no file with a receipt)');
  for (const file of rewind.files) {
    const forced = file.forced ? ' over a later change (--force)' : '';
    const tag = paint(out, file.status === 'refused' ? 'red' : 'green', TAGS[file.status]);
    if (file.status === 'refused') {
      lines.push(`  [${tag}] ${action(file)}: ${file.error?.message ?? ''} (${file.error?.code})`);
      const fix =
        file.error?.code === 'stale_version'
          ? `Look at it first; to put back its version from before the run anyway: repa runs rewind ${rewind.runId} --file ${file.target} --force`
          : file.error?.fix;
      if (fix) lines.push(`           Fix: ${fix}`);
      continue;
    }
    if (file.status === 'unchanged') {
      lines.push(`  [${tag}] ${file.target} is already as it was before the run`);
      continue;
    }
    const counts = file.diff ? `  ${diffCounts(file.diff)}` : '';
    lines.push(`  [${tag}] ${action(file)}${forced}${counts}`);
    if (file.diff && file.status === 'planned') {
      for (const line of changedLines(out, file.diff, { limit: 8 }))
        lines.push(`           ${line}`);
    }
  }
  for (const command of rewind.commands) {
    lines.push(`  [not rewindable] ${command.target} was changed by a command (no receipt)`);
  }
  if (rewind.conversation) {
    lines.push(
      rewind.preview
        ? '  [will] move the conversation back to before the run (the old branch stays in the session file)'
        : '  [done] the conversation continues from before the run (the old branch stays in the session file)',
    );
  }
  if (!rewind.preview) {
    if (rewind.told && rewind.told.length > 0) {
      lines.push(
        `  The model is told at its next request: ${rewind.told.join(', ')} ${rewind.told.length === 1 ? 'was' : 'were'} rewound.`,
      );
    }
    if (rewind.files.some((file) => file.status === 'restored')) {
      lines.push(`  Undo this rewind with: repa runs rewind ${rewind.rewindId}`);
    }
  }
  return lines;
}

/** A run's diff as a unified diff, file by file, then the files a command changed. */
export function runDiffLines(
  out: NodeJS.WritableStream,
  files: readonly RunFileDiff[],
  commands: readonly { target: string }[],
): string[] {
  const lines: string[] = [];
  for (const file of files) {
    const where = file.movedTo ? `${file.target} → ${file.movedTo}` : file.target;
    if (file.diff.diff === undefined) {
      lines.push(`${where}: ${file.change}, ${diffCounts(file.diff)}`);
      continue;
    }
    lines.push(...unifiedLines(out, file.diff.diff));
  }
  for (const command of commands) {
    lines.push(`${command.target}: changed by a command (no diff: commands keep no bytes)`);
  }
  return lines;
}
