import { citationFootnotes, foldedText, type HistoryItem } from '@repa/protocol';
import { relativeTime } from './format-table.js';
import { paint } from './style.js';

/** How {@link historyText} shows a session's history. */
export interface HistoryTextOptions {
  /** Tool results and context snapshots in full (default: one line each). */
  full?: boolean;
  /** Times relative and in local time (a terminal), else as stored (UTC ISO). */
  relative?: boolean;
  /** The stream the text goes to, for colour when it shows it. */
  out?: NodeJS.WritableStream;
  /** The longest text shown of any item in full (default 2000 characters). */
  maxChars?: number;
}

/** Items folded to one line unless `full`: what tools and Repa put in, not the conversation. */
const FOLDED = new Set<HistoryItem['kind']>(['tool-result', 'context-snapshot']);

/** Whether the failed reply at `index` was a model call Pi retried: a later reply of its run came. */
function retried(items: readonly HistoryItem[], index: number): boolean {
  const item = items[index];
  if (item?.outcome !== 'failed' || item.runId === undefined) return false;
  return items
    .slice(index + 1)
    .some((later) => later.kind === 'assistant' && later.runId === item.runId);
}

/**
 * A session's public history as text: each item as `[kind tool] time` and its text; tool results
 * and learning-context snapshots folded to a line unless `full`; a reply that did not complete
 * marked `(cancelled)` or `(failed)`, a failed one with the error it failed with (one line when Pi
 * retried the call and a later reply of the run came); a run's final answer with its citation
 * checks, as the run showed them.
 */
export function historyText(
  items: readonly HistoryItem[],
  options: HistoryTextOptions = {},
): string {
  const max = options.maxChars ?? 2000;
  return items
    .map((item, index) => {
      const again = retried(items, index);
      const label = item.toolName ? `${item.kind} ${item.toolName}` : item.kind;
      const flag = item.isError
        ? ' (error)'
        : item.outcome
          ? ` (${item.outcome}${again ? ', retried' : ''})`
          : '';
      const colour = item.isError || item.outcome ? 'red' : 'cyan';
      const heading = options.out
        ? paint(options.out, colour, `[${label}${flag}]`)
        : `[${label}${flag}]`;
      const when = options.relative ? relativeTime(item.timestamp) : item.timestamp;
      const failure =
        item.outcome === 'failed'
          ? `The model call failed: ${item.error ?? 'no reason given'}`
          : '';
      if (again) return `${heading} ${when}  ${failure}\n`;
      if (!options.full && FOLDED.has(item.kind))
        return `${heading} ${when}  ${foldedText(item.text)}\n`;
      const whole = [item.text, failure].filter((part) => part !== '').join('\n');
      const text = whole.length > max ? `${whole.slice(0, max - 1)}…` : whole;
      const checks = citationFootnotes(item.citations ?? []).map((line) => `${line}\n`);
      return `${heading} ${when}\n${text}\n${checks.join('')}`;
    })
    .join('\n');
}
