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

/**
 * The steer and follow-up messages of one run (spec R70): handed to Pi's queue, delivered when Pi
 * starts them as user messages, taken back when withdrawn or when the run ends first.
 */
export class RunDeliveries {
  readonly #session: AgentSession;
  readonly #store: ContentStore;
  readonly #emit: (event: RunEvent) => void;
  /** Handed to Pi and not yet seen reaching the model. */
  #pending: PendingDelivery[] = [];
  #open = true;

  constructor(session: AgentSession, store: ContentStore, emit: (event: RunEvent) => void) {
    this.#session = session;
    this.#store = store;
    this.#emit = emit;
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
      await this.#queue(kind, text, pending.images);
    }
    return delivered;
  }

  /** Takes back a message not delivered yet (it rejects `cancelled`); false when there is none. */
  async withdraw(requestRunId: string): Promise<boolean> {
    const index = this.#pending.findIndex((pending) => pending.requestRunId === requestRunId);
    if (index === -1) return false;
    const [withdrawn] = this.#pending.splice(index, 1);
    // Pi clears only its whole queue: the other messages are queued again, in their order.
    this.#session.clearQueue();
    for (const other of this.#pending) {
      if (other.queued) await this.#queue(other.kind, other.text, other.images);
    }
    withdrawn?.failed(
      new RepaError('cancelled', 'The message was cancelled before it was delivered.'),
    );
    return true;
  }

  /** A user message reached the model: the first pending delivery with its text is delivered. */
  markDelivered(content: string | readonly { type: string; text?: string }[]): void {
    const text = textOf(content);
    const index = this.#pending.findIndex((pending) => pending.text === text);
    if (index === -1) return;
    const [pending] = this.#pending.splice(index, 1);
    if (!pending) return;
    this.#emit({
      type: pending.kind === 'steer' ? 'steer-delivered' : 'follow-up-delivered',
      text: pending.text,
      requestRunId: pending.requestRunId,
    });
    pending.delivered();
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
    if (this.#pending.length === 0) return;
    this.#session.clearQueue();
    for (const pending of this.#pending.splice(0)) {
      pending.failed(
        new RepaError(
          'run_finished',
          `The run ended before the ${pending.kind === 'steer' ? 'steering' : 'follow-up'} message was delivered.`,
        ),
      );
    }
  }

  #queue(kind: 'steer' | 'followUp', text: string, images: ImageContent[] | undefined) {
    return kind === 'steer'
      ? this.#session.steer(text, images)
      : this.#session.followUp(text, images);
  }
}

/** The text parts of a Pi user message, joined. */
function textOf(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('');
}
