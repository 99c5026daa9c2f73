import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/** `run.*`: runs are accepted, scheduled and cancelled by the run scheduler, read from the ledger. */
export function runHandlers({
  runs,
  ledger,
  space,
}: Pick<HandlerParts, 'runs' | 'ledger' | 'space'>): NamespaceHandlers<'run'> {
  return {
    'run.submit': (params, connection) => runs.submit(params, connection),
    'run.get': async (params) => ({ run: ledger.getRun(params.runId) }),
    'run.list': async (params) => ({
      runs: ledger.listRuns({
        ...params,
        space: params.space === undefined ? undefined : await space(params.space),
      }),
    }),
    'run.subscribe': async (params, connection) => {
      const run = ledger.getRun(params.runId);
      runs.subscribe(run.runId, connection);
      return { run };
    },
    'run.cancel': async (params) => ({ run: await runs.cancel(params.runId) }),
    'run.retry': (params, connection) => runs.retry(params.runId, params.requestId, connection),
    'run.resume': (params, connection) => runs.resume(params.runId, params.requestId, connection),
    'run.prune': async (params) => {
      const root = params.space === undefined ? undefined : await space(params.space);
      const removed = ledger.prune(new Date(params.endedBefore).toISOString(), root);
      return { pruned: removed.runs, imagesRemoved: removed.images };
    },
  };
}
