import { isTerminalRunStatus, type RunEvent, type RunInfo } from '@repa/protocol';
import type { ConnectionContext } from '../server/repa-handlers.js';

interface RunWatch {
  seq: number;
  subscribers: Set<ConnectionContext>;
}

/**
 * Who follows each run, and the sequence of its events: a subscriber gets every `run.event` of
 * the run from its subscription on, numbered from 1, until the run's terminal status.
 */
export class RunWatches {
  readonly #watches = new Map<string, RunWatch>();

  /** Sends the run's next events to `connection` (once, however often it subscribes). */
  subscribe(runId: string, connection: ConnectionContext): void {
    const watch = this.#watch(runId);
    if (watch.subscribers.has(connection)) return;
    watch.subscribers.add(connection);
    connection.onClose(() => watch.subscribers.delete(connection));
  }

  /** Sends an event of the run to its subscribers; a terminal status ends the watch. */
  emit(run: RunInfo, event: RunEvent): void {
    const watch = this.#watch(run.runId);
    watch.seq += 1;
    for (const connection of watch.subscribers) {
      connection.notify('run.event', {
        runId: run.runId,
        sessionId: run.sessionId,
        seq: watch.seq,
        event,
      });
    }
    if (event.type === 'status' && isTerminalRunStatus(event.status)) {
      this.#watches.delete(run.runId);
    }
  }

  #watch(runId: string): RunWatch {
    let watch = this.#watches.get(runId);
    if (!watch) {
      watch = { seq: 0, subscribers: new Set() };
      this.#watches.set(runId, watch);
    }
    return watch;
  }
}
