import type { BigIntStats } from 'node:fs';
import { dirname } from 'node:path';
import { errnoCode, ioError, syncDirectory } from '@repa/durable-fs';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { statKeyOf, writeRepaFile } from '../files/index.js';
import type { PreparedHistory, SaveHistory } from '../history/index.js';
import type { Identities } from '../identity/index.js';
import type { SpaceLock, SpaceResolver } from '../space/index.js';
import type { IntentRecord } from './intent-record.js';
import type { IntentSlot } from './intent-slot.js';
import { checkExpectation, type PlannedChange, receiptsOf, toRecord } from './save-planner.js';
import { drainSlot } from './save-recovery.js';
import { removeTemp, writeNewFile } from './temp-files.js';

/**
 * The named steps of a save, in order; test hooks run after each.
 */
export type SaveStep =
  | 'planned'
  | 'intent-written'
  | 'temp-written'
  | 'checked'
  | 'kept'
  | 'renamed'
  | 'recorded'
  | 'dirs-synced'
  | 'index-written'
  | 'done';

/**
 * Test hooks: `step` runs after each named save step and may pause, change the disk or kill the
 * process.
 */
export interface ContentStoreHooks {
  step?(step: SaveStep, info: { operationId: string; index?: number }): void | Promise<void>;
}

/** How a save gets the space's intent slot: opened (and drained) on demand, given up after a failure. */
export interface SlotAccess {
  open(): Promise<IntentSlot>;
  forget(): Promise<void>;
}

/**
 * The intent slot while one save uses it. The slot belongs to whoever holds the space lock, so
 * after writing its record the save changes it only while the lock is provably still this
 * process's: another process that took a stale lock over may have written its own record there.
 * A slot no longer ours is left as it is; the next holder moves our record out.
 */
class SaveSlot {
  constructor(
    private readonly slot: IntentSlot,
    private readonly lock: Pick<SpaceLock, 'assertHeld'>,
    private readonly access: SlotAccess,
    private readonly space: SpaceResolver,
  ) {}

  /** Opens the slot (created, drained) while the lock is held; then writes this save's record. */
  static async write(
    lock: Pick<SpaceLock, 'assertHeld'>,
    access: SlotAccess,
    space: SpaceResolver,
    record: { operationId: string; text: string; content: Uint8Array | null },
  ): Promise<SaveSlot> {
    await lock.assertHeld();
    const saveSlot = new SaveSlot(await access.open(), lock, access, space);
    // In place over the empty slot (one pwrite, no fsync, no name created or removed): a killed
    // writer leaves the record or a torn one, which recovery quarantines.
    try {
      await saveSlot.slot.write(record.operationId, record.text, record.content);
    } catch (error) {
      await saveSlot.clear().catch(() => undefined);
      throw ioError(error, 'Writing the intent record');
    }
    return saveSlot;
  }

  private ours(): Promise<boolean> {
    return this.lock.assertHeld().then(
      () => true,
      () => false,
    );
  }

  /** Empties the slot (this save's record is no longer needed), if it is still ours. */
  async clear(): Promise<void> {
    if (await this.ours()) await this.slot.clear();
  }

  /**
   * Keeps this save's record beyond this tenure of the slot, if it is still ours: moved to
   * `.repa/intents/` as it is; if it cannot be, the slot is given up so the next save opens (and
   * drains) it again first.
   */
  async keep(): Promise<void> {
    if (await this.ours()) await drainSlot(this.space, this.slot).catch(() => this.access.forget());
  }
}

/**
 * Carries out a plan under the lock: intent record, temp files, recheck, renames (the commit
 * point), folder syncs, identity index, record removal; rolls back what it did before the commit
 * point.
 */
export class SaveCommitter {
  constructor(
    private readonly space: SpaceResolver,
    private readonly identities: Identities,
    private readonly hooks: ContentStoreHooks,
    private readonly history: SaveHistory,
  ) {}

  private async step(step: SaveStep, operationId: string, index?: number): Promise<void> {
    await this.hooks.step?.(step, index === undefined ? { operationId } : { operationId, index });
  }

  /**
   * Saves `plan`; returns one receipt per change, in order. A plan of one change keeps its record
   * in the intent slot (`slots`; README, "The save protocol"), several in `.repa/intents/`.
   */
  async commit(
    plan: PlannedChange[],
    operationId: string,
    lock: Pick<SpaceLock, 'assertHeld'>,
    slots: SlotAccess,
  ): Promise<SaveReceipt[]> {
    const { fs, repaDir } = this.space;
    await this.step('planned', operationId);
    const recordPath = this.space.intentPath(operationId);
    // One change is one rename (or unlink): atomic by itself, so its record is needed only to find
    // the save after a killed process, and the page cache keeps it for that (README, "The save
    // protocol"). Several changes need the record on disk before the first rename.
    const single = plan.length === 1;
    // The slot carries the one change's bytes raw, beside a record without them.
    const record = toRecord(this.space, plan, operationId, !single);
    const text = JSON.stringify(record);
    // The slot is opened only now: a save refused while planning leaves nothing behind.
    const slot = single
      ? await SaveSlot.write(lock, slots, this.space, {
          operationId,
          text,
          content: (plan[0] as PlannedChange).content,
        })
      : undefined;
    if (slot === undefined) {
      let made = false;
      try {
        // Creates `.repa/intents/` if needed (both must be real folders).
        made = true;
        await writeRepaFile(fs, repaDir, recordPath, text, 'all');
      } catch (error) {
        // A record of this operation id that another writer made is not ours to remove.
        if (made && errnoCode(error) !== 'EEXIST')
          await fs.unlink(recordPath).catch(() => undefined);
        throw ioError(error, 'Writing the intent record');
      }
    }
    await this.step('intent-written', operationId);
    const created: string[] = [];
    // The history's part (the replaced bytes linked, the saves log opened) runs while the temp
    // files' fsyncs wait in the thread pool; it never fails the save.
    let history: PreparedHistory | undefined;
    try {
      const writeTemps = async () => {
        for (const change of plan) {
          for (const dir of change.createdDirs) {
            if (created.includes(dir)) continue;
            await this.space.expectRealDir(dirname(dir));
            await fs.mkdir(dir);
            created.push(dir);
          }
          if (change.content !== null && change.temp !== null) {
            await writeNewFile(fs, change.temp, change.content, change.mode);
          }
        }
      };
      // Identities assigned by reads since the last save reach disk durably before this save can
      // be reported; for one change alongside its temp file's fsync (one journal commit for both).
      const prepare = async () => {
        history = await this.history.prepare(plan);
      };
      // All settle before a failure is handled, so the rollback sees every temp file made.
      const settle = async (...tasks: Promise<void>[]) => {
        const results = await Promise.allSettled(tasks);
        for (const result of results) if (result.status === 'rejected') throw result.reason;
      };
      if (single) await settle(writeTemps(), this.identities.makeDurable(), prepare());
      else {
        await this.identities.makeDurable();
        await settle(writeTemps(), prepare());
      }
      await this.step('temp-written', operationId);
      const relink = await this.recheck(plan, history as PreparedHistory);
      await this.step('checked', operationId);
      // The re-check is atomic against other processes only while the lock is still ours.
      await lock.assertHeld();
      // The bytes each change replaces are kept (a hard link, no copy) before they are replaced;
      // again here for a target the re-check found changed since its link.
      if (relink.length > 0) await this.history.keepAgain(history as PreparedHistory, relink);
    } catch (error) {
      if (history !== undefined) await this.history.forget(history);
      await this.rollback(plan, created, recordPath, slot);
      throw ioError(error, 'Preparing the save');
    }
    const prepared = history as PreparedHistory;
    await this.step('kept', operationId);
    // Commit point: from the first rename on, recovery rolls the save forward.
    const applied: PlannedChange[] = [];
    try {
      for (const [index, change] of plan.entries()) {
        if (change.temp !== null) await fs.rename(change.temp, change.absolutePath);
        else await fs.unlink(change.absolutePath);
        applied.push(change);
        await this.step('renamed', operationId, index);
      }
    } catch (error) {
      if (applied.length === 0) {
        await this.history.forget(prepared);
        await this.rollback(plan, created, recordPath, slot);
        throw ioError(error, 'Saving');
      }
      await this.history.close(prepared);
      for (const change of plan) {
        if (!applied.includes(change) && change.temp !== null)
          await removeTemp(fs, change.temp, change.absolutePath);
      }
      const done = applied.map((change) => change.target);
      const pending = plan
        .filter((change) => !applied.includes(change))
        .map((change) => change.target);
      throw new RepaError(
        'io_error',
        `The save was interrupted after ${done.join(', ')} reached disk; ${pending.join(', ')} did not. The rest is completed when the space is opened again.`,
        { cause: error, details: { operationId, applied: done, pending } },
      );
    }
    // From here on the save is reported saved whatever fails: every rename is done.
    const receipts = receiptsOf(operationId, plan);
    await this.history.record(operationId, receipts, { prepared });
    await this.step('recorded', operationId);
    let durable = true;
    try {
      const dirs = new Set(plan.map((change) => dirname(change.absolutePath)));
      for (const dir of created) dirs.add(dirname(dir));
      for (const dir of dirs) await syncDirectory(dir, { fs });
    } catch {
      durable = false;
    }
    await this.step('dirs-synced', operationId);
    try {
      this.identities.apply(plan);
      // An overwrite that keeps every identity (the common case) leaves the index as it is on
      // disk; a new object, a move or a delete (or an earlier failed write) rewrites it.
      await this.identities.persistIfChanged();
    } catch {
      // The index stays dirty in memory and is written with the next change of it.
      durable = false;
    }
    await this.step('index-written', operationId);
    // Contract: a save reported saved is never replayed. The record goes; if it cannot go (or a
    // step above failed), it is rewritten as `committed`, which recovery never replays: it only
    // brings the identity index up to date for the changes still on disk.
    const removed =
      durable &&
      (await (slot !== undefined ? slot.clear() : fs.unlink(recordPath)).then(
        () => true,
        () => false,
      ));
    // A single change's record was never made durable; its removal need not be either.
    if (removed && slot === undefined) {
      await syncDirectory(this.space.intentsDir, { fs }).catch(() => undefined);
    } else if (!removed) {
      const kept = await writeRepaFile(
        fs,
        repaDir,
        recordPath,
        JSON.stringify({
          ...(single ? toRecord(this.space, plan, operationId) : record),
          status: 'committed',
        } satisfies IntentRecord),
      ).then(
        () => true,
        () => false,
      );
      // A record that cannot say `committed` must not stay `pending` (recovery would replay it
      // over later changes): it goes, and the identity index catches up with the next change.
      if (!kept) await fs.unlink(recordPath).catch(() => undefined);
      // The slot's `pending` copy goes too. One left behind is dropped by recovery when the
      // `committed` file exists; without it, recovery finds the one change on disk (or newer
      // bytes) and never writes: a pending single change is only ever rolled forward by its rename.
      await slot?.clear().catch(() => undefined);
    }
    await this.step('done', operationId);
    return receipts;
  }

  /**
   * Right before the renames: every target is still where it was and still has the version planned
   * (its stat key unchanged since a settled planned read, or its bytes read and hashed again).
   * Returns the changes whose kept bytes must be taken again: their target is no longer the file
   * `history` linked.
   */
  private async recheck(
    plan: readonly PlannedChange[],
    history: PreparedHistory,
  ): Promise<PlannedChange[]> {
    const relink: PlannedChange[] = [];
    for (const change of plan) {
      const seen: { stats?: BigIntStats } = {};
      const again = await this.space.canonical(change.target, seen);
      if (again.absolutePath !== change.absolutePath) {
        throw new RepaError(
          'path_outside_space',
          `${JSON.stringify(change.target)} was moved while saving.`,
        );
      }
      // The same absolute path from a walk that `lstat`s every part: no symlink on the way.
      // Unchanged stat key of a settled read: the same bytes (the observer's rule), no re-read.
      // (The walk's own `lstat` of the target gives its key.) A target still at the key its
      // history link left (the link moved its ctime) is the linked file, unchanged since it had the
      // key read right before the link.
      const key = seen.stats?.isFile() === true ? statKeyOf(seen.stats) : undefined;
      const linked = history.linked.get(change.absolutePath);
      const sameAsLinked = linked !== undefined && key === linked.after;
      if (linked !== undefined && !sameAsLinked) relink.push(change);
      const settled = sameAsLinked ? linked.before : key;
      if (change.settledKey !== null && settled === change.settledKey) continue;
      const current = await this.space.currentVersion(change.absolutePath, change.target);
      checkExpectation(change.target, change.previousVersion, current);
    }
    return relink;
  }

  private async rollback(
    plan: readonly PlannedChange[],
    created: readonly string[],
    recordPath: string,
    slot: SaveSlot | undefined,
  ): Promise<void> {
    const { fs } = this.space;
    let clean = true;
    for (const change of plan) {
      if (change.temp !== null && !(await removeTemp(fs, change.temp, change.absolutePath)))
        clean = false;
    }
    for (const dir of [...created].reverse()) await fs.rmdir(dir).catch(() => undefined);
    // A temp file that could not be removed stays listed in its intent; recovery removes it later.
    if (slot === undefined) {
      if (clean) await fs.unlink(recordPath).catch(() => undefined);
    } else if (clean) {
      await slot.clear().catch(() => undefined);
    } else {
      await slot.keep();
    }
  }
}
