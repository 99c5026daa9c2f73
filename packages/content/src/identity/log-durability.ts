import { join } from 'node:path';
import { errnoCode, type FsHandle, READ_NO_FOLLOW, syncDirectory } from '@repa/durable-fs';
import type { SpaceResolver } from '../space/index.js';
import { LOG_FILE } from './identity-log.js';

/**
 * Durability of the identity log, by generation: every change that must reach disk (lines
 * appended, by this store or one it reloaded from) bumps `changeGen`; `durableGen` is the last one
 * fsynced. `createdGen`: the change that came with a log new to this store (its folder entry needs
 * `.repa/` fsynced too, done up to `dirDurableGen`). Passes run in the background after an append.
 */
export class LogDurability {
  private changeGen = 0;
  private durableGen = 0;
  private createdGen = 0;
  private dirDurableGen = 0;
  /** Set when the log was created (or found new); taken by the next change. */
  logCreated = false;
  /** The fsync pass in flight, started in the background after an append. */
  private syncing: { gen: number; done: Promise<void> } | undefined;
  /** The handle of a line appended while a pass ran, for the pass that follows it. */
  private queued: FsHandle | undefined;
  /**
   * A pass failed: Linux reports a writeback error to one fsync only, so a later fsync of the log
   * proves nothing; the identities are made durable by writing the index instead.
   */
  failed = false;

  constructor(private readonly space: SpaceResolver) {}

  private get log(): string {
    return join(this.space.repaDir, LOG_FILE);
  }

  /** The pass in flight, if any. */
  get inFlight(): Promise<void> | undefined {
    return this.syncing?.done;
  }

  /** Whether a change (or a new log's folder entry) is not known to be on disk yet. */
  get pending(): boolean {
    return this.durableGen < this.changeGen || this.dirDurableGen < this.createdGen;
  }

  /** Every change so far counts as durable (the index holding them was written, or the log is gone). */
  settle(): void {
    this.durableGen = this.changeGen;
    this.dirDurableGen = this.createdGen;
  }

  /** Bumps the change generation (a log line to make durable; with the log's folder entry when it is new). */
  changed(): void {
    this.changeGen += 1;
    if (this.logCreated) this.createdGen = this.changeGen;
    this.logCreated = false;
  }

  /**
   * Starts an fsync pass now without waiting for it: it overlaps what follows a read (the model's
   * next reply), so the next save rarely waits for it.
   */
  syncSoon(handle: FsHandle): void {
    if (this.syncing === undefined) {
      this.syncPass(handle).catch(() => undefined);
      return;
    }
    // A pass is running: the newest line's handle waits for the next one.
    const older = this.queued;
    this.queued = handle;
    if (older !== undefined) void this.space.fs.close(older).catch(() => undefined);
  }

  /**
   * One fsync pass over the changes made so far: the log (through `open`, the handle its last line
   * was written with, which the pass closes; else opened now), and `.repa/` when the log is new.
   */
  syncPass(open?: FsHandle): Promise<void> {
    const { fs } = this.space;
    const gen = this.changeGen;
    const withDir = this.createdGen > this.dirDurableGen;
    const syncLog = async () => {
      // A log removed meanwhile took its lines with it: nothing to make durable.
      const handle =
        open ??
        (await fs.open(this.log, READ_NO_FOLLOW).catch((error: unknown) => {
          if (errnoCode(error) === 'ENOENT') return undefined;
          throw error;
        }));
      if (handle === undefined) return;
      try {
        await fs.sync(handle);
      } finally {
        await fs.close(handle).catch(() => undefined);
      }
    };
    const done = (async () => {
      const results = await Promise.allSettled([
        syncLog(),
        withDir ? syncDirectory(this.space.repaDir, { fs }) : undefined,
      ]);
      for (const result of results) {
        if (result.status === 'rejected') {
          this.failed = true;
          throw result.reason;
        }
      }
      if (gen > this.durableGen) this.durableGen = gen;
      if (withDir && gen > this.dirDurableGen) this.dirDurableGen = gen;
    })();
    const pass = { gen, done };
    this.syncing = pass;
    const settle = () => {
      if (this.syncing === pass) this.syncing = undefined;
    };
    // Lines appended while it ran get their own pass at once (a failed pass leaves them to the save).
    done.then(
      () => {
        settle();
        const queued = this.queued;
        this.queued = undefined;
        if (queued !== undefined) this.syncSoon(queued);
      },
      () => {
        settle();
        const queued = this.queued;
        this.queued = undefined;
        if (queued !== undefined) void fs.close(queued).catch(() => undefined);
      },
    );
    return done;
  }
}
