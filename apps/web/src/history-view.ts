import type { HistoryItem, RepaClient, RunInfo } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { HistoryEntry } from './conversation.js';
import { renderMarkdown } from './markdown.js';

/** Statuses of an ended run that Retry applies to. */
const RETRYABLE = new Set(['failed', 'cancelled', 'interrupted']);

/**
 * The session's runs that ended without an answer (`run.list`), read again whenever the history
 * is: a history's reply that did not complete names no run, so its error and Retry come from here.
 */
export function useUnfinishedRuns(
  client: RepaClient,
  space: string | undefined,
  sessionId: string | undefined,
  history: HistoryItem[],
): RunInfo[] {
  const [runs, setRuns] = useState<RunInfo[]>([]);
  useEffect(() => {
    setRuns([]);
    if (space === undefined || sessionId === undefined) return;
    let current = true;
    void client
      .request('run.list', { space, sessionId, limit: 1000 })
      .then(({ runs: listed }) => {
        if (current) setRuns(listed.filter((run) => RETRYABLE.has(run.status) && run.startedAt));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [space, sessionId, history]);
  return runs;
}

/**
 * The run a reply that did not complete belongs to: a request of its own (not a steer) running
 * when the reply was written, the one asking what the learner's message before it asked first.
 */
function runOf(item: HistoryItem, asked: string | undefined, runs: RunInfo[]): RunInfo | undefined {
  const at = Date.parse(item.timestamp);
  const candidates = runs.filter((run) => {
    if (run.delivery === 'steer' || run.delivery === 'followUp') return false;
    const end = run.endedAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(run.endedAt);
    return Date.parse(run.acceptedAt) <= at && at <= end + 1_000;
  });
  return candidates.find((run) => run.input.text === asked) ?? candidates[0];
}

/** A reply that did not complete: what it said, why it ended and, with its run known, Retry. */
function UnfinishedReply({
  item,
  run,
  onRetry,
}: {
  item: HistoryItem;
  run: RunInfo | undefined;
  onRetry: (runId: string) => void;
}) {
  const status = run?.status ?? item.outcome ?? 'failed';
  const error = run?.error;
  return html`<li class="message assistant unfinished" data-run=${run?.runId} data-status=${status}>
    <span class="who">Repa</span>
    ${item.text ? html`<div class="markdown" dangerouslySetInnerHTML=${{ __html: renderMarkdown(item.text) }}></div>` : ''}
    <p class=${`run-status status-${status}`}>
      <span class="status-label">${status === 'failed' ? 'This reply failed' : `This reply was ${status}`}</span>${
        error ? html` — ${error.message}${error.fix ? ` ${error.fix}` : ''}` : ''
      }
    </p>
    ${run ? html`<button type="button" class="retry" onClick=${() => onRetry(run.runId)}>Retry</button>` : ''}
  </li>`;
}

/** A session's saved history, replies that did not complete with their error and Retry. */
export function HistoryList({
  items,
  runs,
  onRetry,
}: {
  items: HistoryItem[];
  runs: RunInfo[];
  onRetry: (runId: string) => void;
}) {
  return html`<ol class="history">
    ${items.map((item, index) =>
      item.kind === 'assistant' && item.outcome
        ? html`<${UnfinishedReply} key=${item.entryId} item=${item} run=${runOf(
            item,
            items.findLast((before, at) => at < index && before.kind === 'user')?.text,
            runs,
          )} onRetry=${onRetry} />`
        : html`<${HistoryEntry} key=${item.entryId} item=${item} />`,
    )}
  </ol>`;
}
