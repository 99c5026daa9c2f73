import type { PiConversationHost } from '@repa/host';
import { RepaError, type RunInfo, type V1Result } from '@repa/protocol';
import type { ConnectionContext } from '../server/repa-handlers.js';
import type { SessionHosts } from '../session-hosts.js';
import { acceptedSettingsOf } from './accepted-settings.js';
import type { RunLedger } from './run-ledger.js';
import type { RunRequest } from './run-request.js';
import type { RunWatches } from './run-watches.js';

/**
 * The `steer` and `followUp` requests being delivered into running runs (spec R70): each is a run
 * record of its own that ends `succeeded` once the model has the message, `failed` with
 * `run_finished` when the run ended first, or `cancelled` when it was taken back.
 */
export class RunDeliveries {
  readonly #ledger: RunLedger;
  readonly #hosts: SessionHosts;
  readonly #watches: RunWatches;
  readonly #announce: (run: RunInfo) => void;
  /** Messages handed to a host, by their record's id, until they settle. */
  readonly #settling = new Map<string, { run: RunInfo; settled: Promise<void> }>();

  /** `announce`: tells the session's followers of a new record (`session.run`). */
  constructor(
    ledger: RunLedger,
    hosts: SessionHosts,
    watches: RunWatches,
    announce: (run: RunInfo) => void,
  ) {
    this.#ledger = ledger;
    this.#hosts = hosts;
    this.#watches = watches;
    this.#announce = announce;
  }

  /**
   * Records a `steer` or `followUp` request into `target` (the session's running run, whose
   * accepted settings it keeps) and hands its message to the session's host.
   */
  accept(
    request: RunRequest,
    kind: 'steer' | 'followUp',
    target: RunInfo,
    host: Promise<PiConversationHost>,
    subscriber?: ConnectionContext,
  ): V1Result<'run.submit'> {
    const acceptance = this.#ledger.accept(
      { ...request, targetRunId: target.runId },
      acceptedSettingsOf(target),
    );
    const record = acceptance.run;
    if (subscriber) this.#watches.subscribe(record.runId, subscriber);
    if (acceptance.resubmitted) return { ...acceptance };
    this.#announce(record);
    this.#ledger.markRunning(record.runId);
    this.#watches.emit(record, { type: 'status', status: 'running' });
    const { text, images } = request.input;
    const delivered = host.then((h) =>
      h.deliver(kind, text, { requestRunId: record.runId, images }),
    );
    const settled = delivered
      .then(
        () => {
          this.#ledger.finish(record.runId, { status: 'succeeded' });
          this.#watches.emit(record, { type: 'status', status: 'succeeded' });
        },
        (error: unknown) => {
          let failure = RepaError.fromUnknown(error);
          // The host had already let the run go: for this request that is the run ending first.
          if (failure.code === 'no_active_run') {
            failure = new RepaError(
              'run_finished',
              'The run ended before the message was delivered.',
            );
          }
          const wire = failure.toWire();
          const status = failure.code === 'cancelled' ? 'cancelled' : 'failed';
          this.#ledger.finish(record.runId, { status, error: wire });
          this.#watches.emit(record, { type: 'status', status, error: wire });
        },
      )
      .finally(() => this.#settling.delete(record.runId));
    this.#settling.set(record.runId, { run: record, settled });
    return { ...acceptance, run: this.#ledger.getRun(record.runId) };
  }

  /** Whether `runId` is a delivery record whose message is still being delivered. */
  has(runId: string): boolean {
    return this.#settling.has(runId);
  }

  /**
   * Takes back the message of a delivery record not yet delivered (a delivered one stays
   * delivered) and waits for the record to settle.
   */
  async withdraw(runId: string): Promise<void> {
    const delivery = this.#settling.get(runId);
    if (!delivery) return;
    const { space, sessionId } = delivery.run;
    await (await this.#hosts.opened(space, sessionId))?.withdraw(runId);
    await delivery.settled;
  }
}
