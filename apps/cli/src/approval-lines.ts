import type {
  EditsMode,
  RepaClient,
  RunApprovalAnsweredEvent,
  RunApprovalRequestEvent,
  SettingItemView,
} from '@repa/protocol';
import { diffCounts, unifiedLines } from './diff-lines.js';

/** The lines of an approval request: what wants to change, then the exact diff, coloured. */
export function approvalRequestLines(
  out: NodeJS.WritableStream,
  event: RunApprovalRequestEvent,
): string[] {
  if (event.command !== undefined)
    return [`[approve] ${event.toolName} wants to run: ${event.command}`];
  const lines = [`[approve] ${event.toolName} wants to change ${(event.targets ?? []).join(', ')}`];
  for (const diff of event.diffs ?? []) {
    lines.push(`  ${diff.target} ${diffCounts(diff)}`);
    if (diff.diff) lines.push(...unifiedLines(out, diff.diff).map((line) => `    ${line}`));
    if (diff.truncated) lines.push('    … (the diff is cut short here)');
  }
  return lines;
}

/** The line of an answered request. */
export function approvalAnsweredLine(event: RunApprovalAnsweredEvent): string {
  const what = event.command ?? (event.targets ?? []).join(', ');
  if (event.decision === 'refused') {
    return `[refused] ${event.toolName} ${what}${event.reason ? `: ${event.reason}` : ''}`;
  }
  const note = event.forRun ? ' (and the rest of this run)' : event.covered ? ' (yes to all)' : '';
  return `[approved] ${event.toolName} ${what}${note}`;
}

const EDITS: Record<EditsMode, string> = {
  auto: 'auto: the model saves without asking (repa settings set tools.edits ask to be asked first)',
  ask: 'ask: each save and command shows its diff and waits for your y/n',
  off: 'off: read-only, the model is offered no tool that saves',
};

/** The header line of `tools.edits`: what the model may change without asking. */
export function editsLine(mode: EditsMode | undefined): string {
  return `[repa] edits: ${EDITS[mode ?? 'auto']}`;
}

/** `tools.edits` as `settings.get`'s items give it. */
export function editsModeOf(items: readonly SettingItemView[]): EditsMode {
  const value = items.find((item) => item.key === 'tools.edits')?.value;
  return value === 'ask' || value === 'off' ? value : 'auto';
}

/** The space's and session's `tools.edits` now (the next run's). */
export async function editsMode(
  client: RepaClient,
  where: { space: string; sessionId: string },
): Promise<EditsMode> {
  const { items } = await client.request('settings.get', where);
  return editsModeOf(items);
}
