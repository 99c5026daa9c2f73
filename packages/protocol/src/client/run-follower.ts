import { RepaError } from '../v1/errors/repa-error.js';
import { isTerminalRunStatus } from '../v1/runs.js';
import type { RunEventNotification, RunInfo } from '../v1/wire-types.generated.js';

/** What a {@link RunFollower} yields. */
export type RunUpdate =
  | {
      /** One `run.event` of the run. */
      kind: 'event';
      /** The event with its run, session and `seq`. */
      notification: RunEventNotification;
    }
  | {
      /**
       * The connection dropped and the client connected again and re-subscribed: the run as the
       * daemon has it now. The daemon does not replay events, so those after `afterSeq` that were
       * sent while the connection was down are missing; none is made up.
       */
      kind: 'resumed';
      /** The run's record as `run.subscribe` answered it after the reconnection. */
      run: RunInfo;
      /** The `seq` of the last event yielded before the drop (0 when none was). */
      afterSeq: number;
    };

/**
 * One run being followed (`RepaClient.followRun`): its updates, in order and none twice, as an
 * async iterable that ends with the run's terminal status (a `status` event, or the run of the
 * start answer or of a `resumed` update). Breaking out of the loop stops following; the run goes on.
 * Contract: the follower listens before `start` sends its request, so no event that arrives with
 * or before the answer is lost. The loop throws what ended the following otherwise: `start`'s
 * error, `daemon_unavailable` when the client could not connect again, the daemon's refusal to
 * re-subscribe (e.g. `not_found`), or its refusal of {@link RunFollower.cancel}.
 */
export interface RunFollower<R extends { run: RunInfo }> extends AsyncIterable<RunUpdate> {
  /** The answer of `start` (the run as accepted); rejects as `start` does. */
  readonly accepted: Promise<R>;
  /** True once {@link RunFollower.cancel} was called. */
  readonly cancelling: boolean;
  /** Asks the daemon to cancel the run (`run.cancel`), as soon as its id is known. */
  cancel(): void;
}

/** What became of one run the client re-subscribed to after a reconnection. */
export type ResumeOutcome = { runId: string; run: RunInfo } | { runId: string; error: RepaError };

/** How a follower reaches its client (passed by the client, so the two files import one way). */
export interface FollowerHooks {
  /** `client.connect()`: reconnects after a drop (and re-subscribes). */
  reconnect(): Promise<unknown>;
  /** `run.subscribe` of the run, for a run the reconnection did not re-subscribe. */
  subscribe(runId: string): Promise<RunInfo>;
  /** `run.cancel` of the run. */
  cancel(runId: string): Promise<unknown>;
  /** Listens to `run.event`, connection drops and the client's own signals; returns unsubscribe. */
  listen(listener: FollowerListener): () => void;
}

/** What a follower hears from its client. */
export interface FollowerListener {
  event(notification: RunEventNotification): void;
  disconnect(): void;
  resumed(outcome: ResumeOutcome): void;
  closed(error: RepaError): void;
}

/** Starts following the run that `start` names; see {@link RunFollower}. */
export function startFollowing<R extends { run: RunInfo }>(
  hooks: FollowerHooks,
  start: () => Promise<R>,
): RunFollower<R> {
  return new Follower(hooks, start);
}

class Follower<R extends { run: RunInfo }> implements RunFollower<R> {
  readonly accepted: Promise<R>;
  readonly #hooks: FollowerHooks;
  readonly #stopListening: () => void;
  #runId: string | undefined;
  /** Events that came before the answer named the run (of any run). */
  #early: RunEventNotification[] = [];
  /** While reconnecting: the run's events that came before its re-subscription's answer. */
  #resuming: RunEventNotification[] | undefined;
  #lastSeq = 0;
  #cancelling = false;
  readonly #queue: RunUpdate[] = [];
  #waiting:
    | { resolve: (result: IteratorResult<RunUpdate>) => void; reject: (error: unknown) => void }
    | undefined;
  #ended = false;
  #failure: { error: unknown } | undefined;

  constructor(hooks: FollowerHooks, start: () => Promise<R>) {
    this.#hooks = hooks;
    this.#stopListening = hooks.listen({
      event: (notification) => this.#onEvent(notification),
      disconnect: () => this.#onDisconnect(),
      resumed: (outcome) => this.#onResumed(outcome),
      closed: (error) => this.#fail(error),
    });
    this.accepted = new Promise<R>((resolve) => resolve(start()));
    this.accepted.then(
      (answer) => this.#onAccepted(answer.run),
      (error: unknown) => this.#fail(error),
    );
  }

  get cancelling(): boolean {
    return this.#cancelling;
  }

  cancel(): void {
    if (this.#cancelling || this.#ended) return;
    this.#cancelling = true;
    if (this.#runId !== undefined) this.#sendCancel(this.#runId);
  }

  [Symbol.asyncIterator](): AsyncIterator<RunUpdate> {
    return {
      next: () => this.#next(),
      return: async () => {
        this.#end();
        this.#queue.length = 0;
        return { done: true, value: undefined };
      },
    };
  }

  #next(): Promise<IteratorResult<RunUpdate>> {
    const update = this.#queue.shift();
    if (update !== undefined) return Promise.resolve({ done: false, value: update });
    if (this.#failure !== undefined) return Promise.reject(this.#failure.error);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  #push(update: RunUpdate): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) waiting.resolve({ done: false, value: update });
    else this.#queue.push(update);
  }

  #onAccepted(run: RunInfo): void {
    if (this.#ended) return;
    this.#runId = run.runId;
    for (const notification of this.#early.splice(0)) {
      if (notification.runId === run.runId) this.#deliver(notification);
    }
    if (this.#ended) return;
    if (isTerminalRunStatus(run.status)) this.#end();
    else if (this.#cancelling) this.#sendCancel(run.runId);
  }

  #onEvent(notification: RunEventNotification): void {
    if (this.#ended) return;
    if (this.#runId === undefined) this.#early.push(notification);
    else if (notification.runId !== this.#runId) return;
    else if (this.#resuming !== undefined) this.#resuming.push(notification);
    else this.#deliver(notification);
  }

  #deliver(notification: RunEventNotification): void {
    if (this.#ended || notification.seq <= this.#lastSeq) return; // Ended, or already yielded.
    this.#lastSeq = notification.seq;
    this.#push({ kind: 'event', notification });
    const { event } = notification;
    if (event.type === 'status' && isTerminalRunStatus(event.status)) this.#end();
  }

  #onDisconnect(): void {
    const runId = this.#runId;
    // Before the answer, `start`'s own request fails with the drop.
    if (this.#ended || runId === undefined || this.#resuming !== undefined) return;
    this.#resuming = [];
    this.#hooks.reconnect().then(
      () => {
        if (this.#ended || this.#resuming === undefined) return;
        // The reconnection did not re-subscribe this run (the client never recorded it): do so.
        this.#hooks.subscribe(runId).then(
          (run) => this.#onResumed({ runId, run }),
          (error: unknown) => this.#fail(error),
        );
      },
      (error: unknown) => this.#fail(error),
    );
  }

  #onResumed(outcome: ResumeOutcome): void {
    if (this.#ended || outcome.runId !== this.#runId) return;
    if ('error' in outcome) {
      this.#fail(outcome.error);
      return;
    }
    const held = this.#resuming ?? [];
    this.#resuming = undefined;
    this.#push({ kind: 'resumed', run: outcome.run, afterSeq: this.#lastSeq });
    // A daemon that restarted numbers the run's events from 1 again.
    this.#lastSeq = 0;
    if (isTerminalRunStatus(outcome.run.status)) {
      this.#end();
      return;
    }
    for (const notification of held) this.#deliver(notification);
  }

  #sendCancel(runId: string): void {
    this.#hooks.cancel(runId).catch((error: unknown) => {
      // The run may have ended meanwhile; its final status still arrives as an event.
      if (!(RepaError.isInstance(error) && error.code === 'not_found')) this.#fail(error);
    });
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#early = [];
    this.#resuming = undefined;
    this.#stopListening();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ done: true, value: undefined });
  }

  #fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = { error };
    const waiting = this.#waiting;
    this.#waiting = undefined;
    this.#end();
    waiting?.reject(error);
  }
}

/**
 * Follows a run to its end without showing its events (`start` as for `RepaClient.followRun`) and
 * resolves with its final record (`run.get`); the study clients use it for runs whose text is
 * Repa's to read (a quiz's questions, a grade), not the learner's.
 */
export async function runToEnd(
  client: {
    followRun<R extends { run: RunInfo }>(start: () => Promise<R>): RunFollower<R>;
    request(method: 'run.get', params: { runId: string }): Promise<{ run: RunInfo }>;
  },
  start: () => Promise<{ run: RunInfo }>,
): Promise<RunInfo> {
  const follower = client.followRun(start);
  for await (const _update of follower) {
    // Only the end counts.
  }
  const { run } = await follower.accepted;
  return (await client.request('run.get', { runId: run.runId })).run;
}
