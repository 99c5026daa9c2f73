import type { RunInfo } from '@repa/protocol';
import type { ConnectionContext } from '../server/repa-handlers.js';
import { sessionKey } from '../session-hosts.js';
import type { RunWatches } from './run-watches.js';

/**
 * Who follows each session's runs (`session.subscribe`), whoever submitted them: a follower gets a
 * `session.run` notification when a run of the session is accepted, starts or moves in the queue,
 * and is subscribed to that run's `run.event` notifications before its first one is sent.
 */
export class SessionWatches {
  readonly #runs: RunWatches;
  readonly #followers = new Map<string, Set<ConnectionContext>>();
  /** Per connection and session: the `onClose` callback's removal. */
  readonly #closers = new Map<ConnectionContext, Map<string, () => void>>();

  constructor(runs: RunWatches) {
    this.#runs = runs;
  }

  /** Sends the session's runs to `connection` from now on (once, however often it subscribes). */
  subscribe(space: string, sessionId: string, connection: ConnectionContext): void {
    const key = sessionKey(space, sessionId);
    let followers = this.#followers.get(key);
    if (!followers) {
      followers = new Set();
      this.#followers.set(key, followers);
    }
    if (followers.has(connection)) return;
    followers.add(connection);
    let closers = this.#closers.get(connection);
    if (!closers) {
      closers = new Map();
      this.#closers.set(connection, closers);
    }
    closers.set(
      key,
      connection.onClose(() => this.unsubscribe(space, sessionId, connection)),
    );
  }

  /** Stops sending the session's new runs to `connection`; false when it did not follow it. */
  unsubscribe(space: string, sessionId: string, connection: ConnectionContext): boolean {
    const key = sessionKey(space, sessionId);
    const followers = this.#followers.get(key);
    if (!followers?.delete(connection)) return false;
    if (followers.size === 0) this.#followers.delete(key);
    const closers = this.#closers.get(connection);
    closers?.get(key)?.();
    closers?.delete(key);
    if (closers?.size === 0) this.#closers.delete(connection);
    return true;
  }

  /**
   * Tells the session's followers about `run` (accepted, started, or moved in the queue) and
   * subscribes them to its events first.
   */
  announce(run: RunInfo): void {
    const followers = this.#followers.get(sessionKey(run.space, run.sessionId));
    if (!followers) return;
    for (const connection of followers) {
      this.#runs.subscribe(run.runId, connection);
      connection.notify('session.run', { space: run.space, sessionId: run.sessionId, run });
    }
  }
}
