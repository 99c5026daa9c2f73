import type { ImageContent } from '@earendil-works/pi-ai';
import type { AgentSession } from '@earendil-works/pi-coding-agent';
import type { ContentStore } from '@repa/content';
import { RepaError, type RunEvent, type RunImage } from '@repa/protocol';
import { resolveRunImages } from '../run-inputs.js';

/** Options of one {@link PiConversationHost.deliver}. */
export interface DeliverOptions {
  /** Images sent with the message. */
  images?: readonly RunImage[];
  /** The request's own ledger record, named in the `steer-delivered` / `follow-up-delivered` event. */
  requestRunId: string;
}

interface PendingDelivery {
  kind: 'steer' | 'followUp';
  text: string;
  images: ImageContent[] | undefined;
  /** Handed to Pi's queue (images are read first). */
  queued: boolean;
  requestRunId: string;
  delivered: () => void;
  failed: (error: RepaError) => void;
}

/** Pi's two queues as its `queue_update` events show them (the texts as Pi queued them). */
interface PiQueues {
  steering: readonly string[];
  followUp: readonly string[];
}

const QUEUE_OF = { steer: 'steering', followUp: 'followUp' } as const;

/**
 * The steer and follow-up messages of one run (spec R70): handed to Pi's queue, delivered when Pi
 * takes them out of it to start them as user messages, taken back when withdrawn or when the run
 * ends first. A message is known by its place in Pi's queue, never by its text: Pi expands a
 * `/skill:name` or a prompt template in the text it queues and delivers.
 */
export class RunDeliveries {
  readonly #session: AgentSession;
  readonly #store: ContentStore;
  readonly #emit: (event: RunEvent) => void;
  /** Handed to Pi and not yet seen reaching the model. */
  #pending: PendingDelivery[] = [];
  #open = true;
  /** Pi's queues as last seen, and whose message each place holds (undefined: not this run's). */
  #seen: PiQueues = { steering: [], followUp: [] };
  readonly #places: Record<keyof PiQueues, (PendingDelivery | undefined)[]> = {
    steering: [],
    followUp: [],
  };
  /** The message being handed to Pi now (one at a time, so its place is known). */
  #queueing: PendingDelivery | undefined;
  #clearing = false;
  #handing: Promise<void> = Promise.resolve();
  readonly #unsubscribe: () => void;

  constructor(session: AgentSession, store: ContentStore, emit: (event: RunEvent) => void) {
    this.#session = session;
    this.#store = store;
    this.#emit = emit;
    this.#unsubscribe = session.subscribe((event) => {
      if (event.type === 'queue_update') this.#onQueueUpdate(event);
    });
  }

  /** False once the run has ended: no more deliveries are taken. */
  get open(): boolean {
    return this.#open;
  }

  /** Queues a message in Pi; resolves once it reaches the model (see `PiConversationHost.deliver`). */
  async deliver(kind: 'steer' | 'followUp', text: string, options: DeliverOptions): Promise<void> {
    let pending!: PendingDelivery;
    const delivered = new Promise<void>((resolve, reject) => {
      pending = {
        kind,
        text,
        images: undefined,
        queued: false,
        requestRunId: options.requestRunId,
        delivered: resolve,
        failed: reject,
      };
    });
    delivered.catch(() => {}); // The caller gets the rejection through the returned promise.
    this.#pending.push(pending); // Known, and can be withdrawn, from here on.
    try {
      const images = await resolveRunImages(this.#store, options.images ?? []);
      if (images.length > 0) pending.images = images;
    } catch (error) {
      this.#pending = this.#pending.filter((other) => other !== pending);
      throw error;
    }
    // Not withdrawn meanwhile, and the run has not ended (which fails what is pending).
    if (this.#pending.includes(pending)) {
      pending.queued = true;
      await this.#queue(pending);
    }
    return delivered;
  }

  /** Takes back a message not delivered yet (it rejects `cancelled`); false when there is none. */
  async withdraw(requestRunId: string): Promise<boolean> {
    const index = this.#pending.findIndex((pending) => pending.requestRunId === requestRunId);
    if (index === -1) return false;
    const [withdrawn] = this.#pending.splice(index, 1);
    // Pi clears only its whole queue: the other messages are queued again, in their order.
    this.#clearQueue();
    for (const other of this.#pending) {
      if (other.queued) await this.#queue(other);
    }
    withdrawn?.failed(
      new RepaError('cancelled', 'The message was cancelled before it was delivered.'),
    );
    return true;
  }

  /** Takes no more messages from now on. */
  close(): void {
    this.#open = false;
  }

  /**
   * The run ended: what is still pending is taken back out of Pi's queue (Pi would hand it to the
   * next prompt) and fails with `run_finished` (nothing is lost).
   */
  failPending(): void {
    this.#unsubscribe();
    if (this.#pending.length === 0) return;
    this.#clearQueue();
    for (const pending of this.#pending.splice(0)) {
      pending.failed(
        new RepaError(
          'run_finished',
          `The run ended before the ${pending.kind === 'steer' ? 'steering' : 'follow-up'} message was delivered.`,
        ),
      );
    }
  }

  /** Hands one message to Pi's queue; one at a time, so the place Pi gives it is its own. */
  #queue(pending: PendingDelivery): Promise<void> {
    const hand = async () => {
      this.#queueing = pending;
      try {
        if (pending.kind === 'steer') await this.#session.steer(pending.text, pending.images);
        else await this.#session.followUp(pending.text, pending.images);
      } finally {
        this.#queueing = undefined;
      }
    };
    const handed = this.#handing.then(hand);
    this.#handing = handed.catch(() => {});
    return handed;
  }

  #clearQueue(): void {
    this.#clearing = true;
    try {
      this.#session.clearQueue();
    } finally {
      this.#clearing = false;
    }
  }

  /**
   * Pi's queues changed: a place added holds the message being handed to Pi; a place taken out
   * (other than by a clear) is a message Pi is starting as a user message now, so it is delivered.
   */
  #onQueueUpdate(queues: PiQueues): void {
    for (const name of ['steering', 'followUp'] as const) {
      const before = this.#seen[name];
      const after = queues[name];
      const places = this.#places[name];
      if (this.#clearing || before.length - after.length > 1) {
        // Cleared (a message Pi starts leaves one place at a time): nothing was delivered.
        places.splice(0, places.length, ...after.map(() => undefined));
      } else if (after.length > before.length) {
        const mine = this.#queueing && QUEUE_OF[this.#queueing.kind] === name;
        for (let index = before.length; index < after.length; index += 1) {
          places.push(mine && index === after.length - 1 ? this.#queueing : undefined);
        }
      } else if (after.length < before.length) {
        let index = after.findIndex((text, at) => text !== before[at]);
        if (index === -1) index = after.length;
        // Pi takes out the first of equal texts (its agent delivers them in order).
        while (index > 0 && before[index - 1] === before[index]) index -= 1;
        const [taken] = places.splice(index, 1);
        if (taken) this.#delivered(taken);
      }
    }
    this.#seen = { steering: [...queues.steering], followUp: [...queues.followUp] };
  }

  #delivered(pending: PendingDelivery): void {
    const index = this.#pending.indexOf(pending);
    if (index === -1) return;
    this.#pending.splice(index, 1);
    this.#emit({
      type: pending.kind === 'steer' ? 'steer-delivered' : 'follow-up-delivered',
      text: pending.text,
      requestRunId: pending.requestRunId,
    });
    pending.delivered();
  }
}
