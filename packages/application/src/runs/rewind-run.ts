import { randomBytes } from 'node:crypto';
import { diffGroup, pruneSpaceHistory } from '@repa/content';
import { isTerminalRunStatus, RepaError, type V1Params, type V1Result } from '@repa/protocol';
import type { SettingsStore } from '@repa/settings';
import type { SessionHosts } from '../session-hosts.js';
import { openSpaceStore } from '../space-store.js';
import type { SpaceTrust } from '../space-trust.js';
import type { RunLedger } from './run-ledger.js';

/** What diffs, rewinds and the pruning of kept history need of the application. */
export interface RewindParts {
  appDirectory: string;
  ledger: RunLedger;
  settings: SettingsStore;
  trust: SpaceTrust;
  hosts: SessionHosts;
}

/** The suffix a rewind adds to the id it rewinds: `<runId>-undo-<8 hex>`. */
const REWIND_SUFFIX = /-undo-[0-9a-f]{8}$/u;

/** The run a run id or rewind id (`<runId>-undo-…`, any depth) goes back to, from the ledger. */
function baseRun(ledger: RunLedger, id: string) {
  let runId = id;
  while (REWIND_SUFFIX.test(runId)) runId = runId.replace(REWIND_SUFFIX, '');
  return ledger.getRun(runId);
}

/**
 * `run.diff`: what a run (or a rewind) changed, per file, from the bytes its saves replaced and
 * wrote (kept in its space's `.repa/history/`).
 */
export async function diffRun(
  parts: RewindParts,
  params: V1Params<'run.diff'>,
): Promise<V1Result<'run.diff'>> {
  const run = baseRun(parts.ledger, params.runId);
  const store = await openSpaceStore(run.space, parts.appDirectory);
  return { runId: params.runId, ...(await diffGroup(store, params.runId, params.file)) };
}

/**
 * `run.rewind`: rewinds a finished run (or undoes a rewind) through its session's host, with the
 * session's `prompts.fileChanges` deciding how the model is told. `busy` while the run or another
 * run of its session is active.
 */
export async function rewindRun(
  parts: RewindParts,
  params: V1Params<'run.rewind'>,
): Promise<V1Result<'run.rewind'>> {
  const run = baseRun(parts.ledger, params.runId);
  const ofRewind = params.runId !== run.runId;
  if (run.targetRunId) {
    throw new RepaError('invalid_request', `Run ${run.runId} is a ${run.delivery} message.`, {
      fix: 'Rewind the run it was delivered into.',
    });
  }
  if (ofRewind && params.conversation) {
    throw new RepaError('invalid_request', "A rewind's conversation move cannot be rewound.", {
      fix: 'Rewind its files only (without --conversation).',
    });
  }
  const active = parts.ledger
    .activeRuns()
    .find((other) => other.space === run.space && other.sessionId === run.sessionId);
  if (!isTerminalRunStatus(run.status) || active) {
    throw new RepaError('busy', `Session ${run.sessionId} has an active run.`, {
      fix: 'Wait for the run to end (or cancel it), then rewind.',
      details: { runId: active?.runId ?? run.runId },
    });
  }
  // The limits in force now decide what is still kept (a run may have changed them since).
  await pruneHistoryAfterRun(parts, run.space, true);
  const trusted = await parts.trust.isTrusted(run.space);
  const host = await parts.hosts.host(run.space, run.sessionId, trusted);
  const settings = await parts.settings.resolveForRun(run.space, run.sessionId);
  const rewind = await host.rewind({
    runId: params.runId,
    rewindId: `${params.runId}-undo-${randomBytes(4).toString('hex')}`,
    operationId: params.operationId,
    files: params.files,
    force: params.force,
    preview: params.preview,
    conversation: params.conversation,
    fileChanges: settings.promptSettings.fileChanges,
  });
  // The run is marked while its saves are rewound: a rewind of the run marks it, an undo of that
  // rewind clears the mark, an undo of the undo marks it again (each level flips it).
  const changed =
    rewind.files.some((file) => file.status === 'restored') || rewind.conversation !== undefined;
  if (!params.preview && changed) {
    const depth = params.runId.slice(run.runId.length).split('-undo-').length - 1;
    parts.ledger.markRewound(
      run.runId,
      depth % 2 === 0 ? { rewindId: rewind.rewindId, at: new Date().toISOString() } : null,
    );
  }
  return { rewind };
}

/** When each space's history was last pruned here, and with which limits. */
const pruned = new Map<string, { at: number; limits: string }>();
/** How often a space's kept history is pruned after runs (unless its limits changed). */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Evicts what the space's `history.maxMegabytes` and `history.maxDays` no longer allow, after a
 * run (at most every 10 minutes per space, or at once when the limits changed or `now`). Never
 * throws.
 */
export async function pruneHistoryAfterRun(
  parts: RewindParts,
  space: string,
  now = false,
): Promise<void> {
  try {
    const items = await parts.settings.get({ space });
    const value = (key: string, fallback: number) => {
      const found = items.find((item) => item.key === key)?.value;
      return typeof found === 'number' ? found : fallback;
    };
    const limits = {
      maxBytes: value('history.maxMegabytes', 256) * 1024 * 1024,
      maxAgeMs: value('history.maxDays', 30) * 86_400_000,
    };
    const last = pruned.get(space);
    const key = JSON.stringify(limits);
    if (!now && last && last.limits === key && Date.now() - last.at < PRUNE_EVERY_MS) return;
    pruned.set(space, { at: Date.now(), limits: key });
    await pruneSpaceHistory(await openSpaceStore(space, parts.appDirectory), limits);
  } catch {
    // Pruning bounds the history; a failure leaves it as it was until the next run.
  }
}
