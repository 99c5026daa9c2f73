import { markChangedSince } from '@repa/content';
import type { RunInfo } from '@repa/protocol';
import { diffRun, rewindRun } from '../runs/rewind-run.js';
import { answerApproval } from '../runs/run-approvals.js';
import { findRun } from '../runs/run-names.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { openSpaceStore } from '../space-store.js';
import type { HandlerParts } from './handler-parts.js';

/** `run.*`: runs are accepted, scheduled and cancelled by the run scheduler, read from the ledger. */
export function runHandlers(parts: HandlerParts): NamespaceHandlers<'run'> {
  const { runs, ledger } = parts;
  return {
    'run.submit': (params, connection) => runs.submit(params, connection),
    'run.get': async (params) => ({
      run: await withCitationsNow(parts, ledger.getRun(params.runId)),
    }),
    'run.resolve': async (params) => ({
      run: await withCitationsNow(parts, findRun(ledger, params.run, params)),
    }),
    'run.list': async ({ brief, ...params }) => {
      const runs = ledger.listRuns(params);
      return { runs: brief ? runs.map(({ promptSections: _, ...run }) => run) : runs };
    },
    'run.subscribe': async (params, connection) => {
      const run = ledger.getRun(params.runId);
      runs.subscribe(run.runId, connection);
      return { run };
    },
    'run.cancel': async (params) => ({ run: await runs.cancel(params.runId) }),
    'run.approve': (params) => answerApproval(parts, params),
    'run.retry': (params, connection) => runs.retry(params.runId, params.requestId, connection),
    'run.resume': (params, connection) => runs.resume(params.runId, params.requestId, connection),
    'run.prune': async (params) => {
      const removed = ledger.prune(new Date(params.endedBefore).toISOString(), params.space);
      return { pruned: removed.runs, imagesRemoved: removed.images };
    },
    // What a run changed and its undoing: kept bytes in the space (runs/rewind-run.ts).
    'run.diff': (params) => diffRun(parts, params),
    'run.rewind': (params) => rewindRun(parts, params),
  };
}

/**
 * A run with its citations as shown now: `changedSince` on those whose document no longer has the
 * version the run read (spec R60); one read per cited document, none without citations.
 */
async function withCitationsNow(parts: HandlerParts, run: RunInfo): Promise<RunInfo> {
  if (!run.citations?.length) return run;
  const store = await openSpaceStore(run.space, parts.appDirectory);
  return { ...run, citations: await markChangedSince(store, run.citations) };
}
