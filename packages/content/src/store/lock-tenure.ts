import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureDir, exists } from '../files/index.js';
import type { Identities } from '../identity/index.js';
import { drainSlot, IntentSlot, SLOT_NAME } from '../save/index.js';
import { acquireSpaceLock, type SpaceLock, type SpaceResolver } from '../space/index.js';
import { HAND_OVER_MS, LOCK_CHECK_MS, LOCK_KEEP_MS } from './lock-timing.js';

/** The queue of an idle store: settled, and made outside any caller's async context. */
const IDLE: Promise<unknown> = Promise.resolve();
/** Drops what a task ended with, so the queue's tail holds neither its result nor its error. */
const dropOutcome = (): undefined => undefined;

/**
 * One store's turns: its tasks run one at a time in this process and, across processes, under the
 * space's lock, which lingers after a task while nobody else wants it; the intent slot belongs to
 * one tenure of that lock.
 */
export class LockTenure {
  private queue: Promise<unknown> = IDLE;
  /** The space lock while it lingers after a task (see {@link locked}), and its release timer. */
  private held: { lock: SpaceLock; release: NodeJS.Timeout | undefined } | undefined;
  /** The intent slot while this process holds the lock, checked empty when the lock was taken. */
  private openedSlot: IntentSlot | undefined;

  constructor(
    private readonly space: SpaceResolver,
    private readonly identities: Identities,
  ) {}

  /** The intent slot of this tenure of the lock, when it is open. */
  get slot(): IntentSlot | undefined {
    return this.openedSlot;
  }

  /** Runs `task` alone in this store (no lock across processes). */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    const tail = run.then(dropOutcome, dropOutcome);
    this.queue = tail;
    // An idle store keeps no promise made in a caller's async context (and what that context holds).
    void tail.then(() => {
      if (this.queue === tail) this.queue = IDLE;
    });
    return run;
  }

  /**
   * Runs `task` alone in this store and, across processes, under the space's lock
   * (`.repa/content.lock`): every save, identity assignment and recovery step. The identity index
   * is reread first when another process changed it.
   */
  locked<T>(task: (lock: SpaceLock) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const { fs, repaDir } = this.space;
      const { lock, kept } = await this.takeLock();
      try {
        // Checked again under the lock: `.repa` may have been swapped meanwhile.
        await ensureDir(fs, repaDir);
        // Another process writes the index only under the lock: a lock kept since the last task
        // means the index in memory is the one on disk.
        if (!kept) await this.identities.reload(true);
        return await task(lock);
      } finally {
        // The lock stays while nobody else wants it, so a conversation's saves take it once.
        const held = { lock, release: undefined as NodeJS.Timeout | undefined };
        const until = Date.now() + LOCK_KEEP_MS;
        const check = () => {
          if (this.held !== held) return;
          if (!lock.wanted() && Date.now() < until) {
            held.release = setTimeout(check, LOCK_CHECK_MS).unref();
            return;
          }
          void this.exclusive(async () => {
            if (this.held !== held) return;
            this.held = undefined;
            await this.closeSlot();
            await lock.release().catch(() => undefined);
          });
        };
        held.release = setTimeout(check, LOCK_CHECK_MS).unref();
        this.held = held;
      }
    });
  }

  /**
   * Opens the intent slot for this tenure of the lock, moving out a record left in it; creates it
   * (and `.repa/intents/`, where its records go) when `create`, else `undefined` when there is none.
   */
  async openSlot(create: true): Promise<IntentSlot>;
  async openSlot(create: boolean): Promise<IntentSlot | undefined>;
  async openSlot(create: boolean): Promise<IntentSlot | undefined> {
    const { fs, repaDir, intentsDir } = this.space;
    if (!create && !(await exists(fs, join(repaDir, SLOT_NAME)))) return undefined;
    if (create) await ensureDir(fs, intentsDir);
    const slot = await IntentSlot.open(fs, repaDir);
    try {
      await drainSlot(this.space, slot);
    } catch (error) {
      await slot.close();
      throw error;
    }
    this.openedSlot = slot;
    return slot;
  }

  /** Closes the slot: the lock is gone, and another process may write it next. */
  async closeSlot(): Promise<void> {
    const slot = this.openedSlot;
    this.openedSlot = undefined;
    await slot?.close();
  }

  /**
   * The lingering lock if this process still holds it (`kept`), else a newly taken one. Runs in
   * the queue.
   */
  private async takeLock(): Promise<{ lock: SpaceLock; kept: boolean }> {
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) {
      clearTimeout(held.release);
      const still = await held.lock.assertHeld().then(
        () => true,
        () => false,
      );
      // Another process waits: it goes first (tasks closer together than the checks would starve it).
      const wanted = still && held.lock.wanted();
      if (still && !wanted) return { lock: held.lock, kept: true };
      await this.closeSlot();
      await held.lock.release().catch(() => undefined);
      if (wanted) await sleep(HAND_OVER_MS);
    }
    // Whatever this process knew of the slot is void once another process may have held the lock.
    await this.closeSlot();
    await ensureDir(this.space.fs, this.space.repaDir);
    return { lock: await acquireSpaceLock(this.space.repaDir), kept: false };
  }
}
