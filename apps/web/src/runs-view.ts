import type { RepaClient, RunInfo } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { localTime } from './local-time.js';
import { describeError } from './panels.js';
import { isActive, isRetryable } from './run-status.js';

/** How long a run took (or has taken so far), e.g. `4.2 s`, `3 min 5 s`. */
export function durationOf(run: RunInfo, now = Date.now()): string | undefined {
  if (!run.startedAt) return undefined;
  const ms = (run.endedAt ? Date.parse(run.endedAt) : now) - Date.parse(run.startedAt);
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A run's tokens and cost as the provider reported them, in a few words. */
export function usageOf(run: RunInfo): string {
  const usage = run.usage;
  if (!usage) return run.model === 'repa-offline' ? 'no model call (local responder)' : '';
  const tokens = `${usage.totalTokens.toLocaleString()} tokens (${usage.input.toLocaleString()} in, ${usage.output.toLocaleString()} out${
    usage.cacheRead > 0 ? `, ${usage.cacheRead.toLocaleString()} from cache` : ''
  })`;
  const cost =
    usage.cost === undefined
      ? ', no price known'
      : `, $${usage.cost < 0.01 ? usage.cost.toFixed(4) : usage.cost.toFixed(2)}`;
  return `${tokens}${cost}`;
}

/** The system prompt's sections, as the page names them. */
const SECTIONS: Record<string, string> = {
  base: 'Base prompt',
  environment: 'Working environment',
  materials: 'Materials',
  skillCatalog: 'Skill catalog',
  projectInstructions: 'Project instructions',
  tools: 'Tools',
  fileChanges: 'Changed files',
  citations: 'Citations',
  append: 'Added text',
};

/** A run's status for people, with its queue place, and `rewound` while its saves are rewound. */
function statusOf(run: RunInfo): string {
  if (run.queuePosition !== undefined) return `queued (${run.queuePosition})`;
  const status = run.status === 'accepted' ? 'waiting' : run.status;
  return run.rewound ? `${status}, rewound` : status;
}

/**
 * The Runs view: the session's queue (cancelling a queued run takes it out), then every run newest
 * first with its status, duration, tokens and cost, error, Cancel or Retry, and the report of
 * what its prompt held.
 */
export function RunsView({
  client,
  space,
  sessionId,
  version,
  onCancel,
  onRetry,
}: {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  version: number;
  onCancel: (runId: string) => Promise<void> | void;
  onRetry: (runId: string) => Promise<void> | void;
}) {
  const [runs, setRuns] = useState<RunInfo[]>([]);
  const [message, setMessage] = useState('');
  const load = async () => {
    try {
      const where = { space, ...(sessionId ? { sessionId } : {}), limit: 20 };
      setRuns((await client.request('run.list', where)).runs);
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  useEffect(() => {
    void load();
  }, [space, sessionId, version]);
  const queued = runs
    .filter((run) => run.status === 'accepted' && run.queuePosition !== undefined)
    .sort((a, b) => (a.queuePosition ?? 0) - (b.queuePosition ?? 0));
  const act = async (run: RunInfo, action: 'cancel' | 'retry') => {
    try {
      if (action === 'cancel') {
        await onCancel(run.runId);
        if (run.queuePosition !== undefined) {
          setMessage(`Took “${run.input.text.slice(0, 40)}” out of the queue.`);
        }
      } else {
        await onRetry(run.runId);
        setMessage(`Retrying “${run.input.text.slice(0, 40)}”.`);
      }
    } catch (error) {
      setMessage(describeError(error));
    }
    await load();
  };
  return html`<section class="panel runs-view" aria-labelledby="runs-heading">
    <h2 id="runs-heading">Runs</h2>
    <p class="panel-message" role="status">${message}</p>
    ${
      queued.length > 0
        ? html`<h3 id="queue-heading">Queued</h3>
            <ol class="queue-list" aria-labelledby="queue-heading">
              ${queued.map(
                (run) => html`<li data-run=${run.runId}>
                  <span class="queue-position">${run.queuePosition}.</span>
                  <span class="queue-text">${run.input.text.slice(0, 60)}</span>
                  <button type="button" class="cancel" aria-label=${`Cancel queued request ${run.queuePosition}: ${run.input.text.slice(0, 40)}`} onClick=${() => void act(run, 'cancel')}>Cancel</button>
                </li>`,
              )}
            </ol>`
        : ''
    }
    ${runs.length === 0 ? html`<p class="meta">No runs in this session yet.</p>` : ''}
    <ul class="runs">
      ${runs.map((run) => {
        const duration = durationOf(run);
        const usage = usageOf(run);
        const short = run.input.text.slice(0, 40);
        return html`<li data-run=${run.runId} data-status=${run.status}>
          <p class="run-line">
            <span class=${`run-state status-${run.status}`}>${statusOf(run)}</span>
            ${run.delivery === 'steer' || run.delivery === 'followUp' ? html` <span class="meta">${run.delivery === 'steer' ? 'steer' : 'follow-up'}</span>` : ''}
            <span class="run-text">${run.input.text.slice(0, 80)}</span>
          </p>
          <p class="meta run-facts">
            ${[
              run.model
                ? run.model === 'repa-offline'
                  ? 'local responder'
                  : run.model
                : undefined,
              run.thinkingLevel && run.thinkingLevel !== 'off'
                ? `thinking ${run.thinkingLevel}`
                : undefined,
              duration,
              localTime(run.acceptedAt),
              run.attempt > 1 ? `attempt ${run.attempt}` : undefined,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          ${usage ? html`<p class="meta run-usage">${usage}</p>` : ''}
          ${run.error ? html`<p class="error-text run-error">${run.error.message}${run.error.fix ? ` ${run.error.fix}` : ''}</p>` : ''}
          <div class="row">
            ${
              isActive(run.status) && run.queuePosition === undefined
                ? html`<button type="button" class="cancel" aria-label=${`Cancel the run “${short}”`} onClick=${() => void act(run, 'cancel')}>Cancel</button>`
                : ''
            }
            ${
              isRetryable(run.status)
                ? html`<button type="button" class="retry" aria-label=${`Retry “${short}”`} onClick=${() => void act(run, 'retry')}>Retry</button>`
                : ''
            }
          </div>
          ${
            (run.promptSections ?? []).length > 0
              ? html`<details>
                  <summary>What the model was shown</summary>
                  <ul class="sections">
                    ${(run.promptSections ?? []).map(
                      (section) => html`<li>
                        <span class="section-name" data-section=${section.name}>${SECTIONS[section.name] ?? section.name}</span> ${section.included ? `included, ${section.chars} chars` : 'absent'} — ${section.reason}
                      </li>`,
                    )}
                  </ul>
                </details>`
              : ''
          }
        </li>`;
      })}
    </ul>
  </section>`;
}
