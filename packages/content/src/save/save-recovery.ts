import { dirname, join } from 'node:path';
import { syncDirectory } from '@repa/durable-fs';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { exists, isStrayRepaTemp, realDirExists, writeRepaFile } from '../files/index.js';
import type { SaveHistory } from '../history/index.js';
import type { Identities } from '../identity/index.js';
import type { SpaceResolver } from '../space/index.js';
import type { IntentChange, IntentRecord } from './intent-record.js';
import { readIntentRecords } from './intent-records.js';
import type { IntentSlot } from './intent-slot.js';
import { fromRecord, type PlannedChange, receiptsOf } from './save-planner.js';
import { removeTemp, writeNewFile } from './temp-files.js';

/**
 * A save that recovery could not finish, or a record it refused to trust (`quarantined`); the
 * record stays in `.repa/intents/` until discarded.
 */
export interface RecoverableIntent {
  /** The save's operation id (for a quarantined record: its file name without `.json`). */
  operationId: string;
  /** `recoverable`: nothing of it was lost; `quarantined`: the record is damaged or unsafe and was not acted on. */
  status: 'recoverable' | 'quarantined';
  /** When the save started (ISO-8601; empty when the record is unreadable). */
  createdAt: string;
  /** Absolute path of the record, which also holds the new bytes (base64). */
  recordPath: string;
  /** Why it was left unfinished or quarantined. */
  reason: string;
  /** Each change and whether it is on disk. */
  changes: {
    target: string;
    previousVersion: string | null;
    version: string | null;
    applied: boolean;
  }[];
}

/** What opening the store did with one intent record it found (see README, "Recovery"). */
export interface RecoveredSave {
  /** The save's operation id (for a quarantined record: its file name without `.json`). */
  operationId: string;
  /**
   * `rolled-forward`: the save is complete on disk now; `recoverable`: kept for a person to look at
   * (see `listRecoverable`); `quarantined`: the record is damaged or unsafe, nothing was done.
   */
  outcome: 'rolled-forward' | 'recoverable' | 'quarantined';
  /** The changes of the save that are on disk now. */
  receipts: SaveReceipt[];
  /** Why it ended this way. */
  reason: string;
}

/**
 * The intent records of a space: finishing or keeping the saves a crash interrupted, quarantining
 * records that cannot be trusted, listing and discarding what is kept.
 */
export class SaveRecovery {
  constructor(
    private readonly space: SpaceResolver,
    private readonly identities: Identities,
    private readonly history: SaveHistory,
  ) {}

  /**
   * Runs under the lock: no save of any process is in flight, so every record is a dead writer's.
   * Reports each record's outcome into `report` as it goes.
   */
  async run(report: RecoveredSave[]): Promise<void> {
    await this.removeStrayRepaTemps();
    for (const { name, path, record, problem } of await readIntentRecords(this.space)) {
      if (problem !== undefined || record === undefined) {
        report.push({
          operationId: name,
          outcome: 'quarantined',
          receipts: [],
          reason: problem ?? 'The record is damaged.',
        });
      } else if (record.status === 'pending') {
        report.push(await this.resolveIntent(record, path));
      } else if (record.status === 'committed') {
        report.push(await this.finishCommitted(record, path));
      }
    }
  }

  /** The saves a crash left unfinished and the records recovery quarantined. */
  async list(): Promise<RecoverableIntent[]> {
    const result: RecoverableIntent[] = [];
    for (const { record, path, name, problem } of await readIntentRecords(this.space)) {
      if (problem === undefined && record?.status !== 'recoverable') continue;
      result.push({
        operationId: name,
        status: problem === undefined ? 'recoverable' : 'quarantined',
        createdAt: record?.createdAt ?? '',
        recordPath: path,
        reason: problem ?? record?.reason ?? 'The save did not reach disk.',
        changes: (record?.changes ?? []).map((change) => ({
          target: change.target,
          previousVersion: change.previousVersion,
          version: change.version,
          applied: change.applied ?? false,
        })),
      });
    }
    return result;
  }

  /** Deletes the record of a recoverable or quarantined save. Runs under the lock. */
  async discard(operationId: string): Promise<void> {
    const found = (await readIntentRecords(this.space)).find(
      ({ record, name, problem }) =>
        name === operationId && (problem !== undefined || record?.status === 'recoverable'),
    );
    if (!found) {
      throw new RepaError('not_found', `No recoverable save has the operation id ${operationId}.`);
    }
    await this.space.fs.unlink(found.path);
  }

  private async removeStrayRepaTemps(): Promise<void> {
    const { fs } = this.space;
    for (const dir of [this.space.repaDir, this.space.intentsDir, this.history.dir]) {
      let names: string[];
      try {
        if (!(await realDirExists(fs, dir))) continue;
        names = await fs.readdir(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (isStrayRepaTemp(name)) await fs.unlink(join(dir, name)).catch(() => undefined);
      }
    }
  }

  /** Records the changes of a save that are on disk, unless its record is there already. */
  private async recordHistory(operationId: string, onDisk: PlannedChange[]): Promise<void> {
    if (onDisk.length === 0) return;
    await this.history.record(operationId, receiptsOf(operationId, onDisk), { once: true });
  }

  private async changeState(change: IntentChange): Promise<'applied' | 'base' | 'other'> {
    try {
      const location = await this.space.canonical(change.target);
      const current = await this.space.currentVersion(location.absolutePath, change.target);
      const version = current?.version ?? null;
      if (version === change.version) return 'applied';
      if (version === change.previousVersion) return 'base';
      return 'other';
    } catch {
      return 'other';
    }
  }

  /** A save reported saved whose clean-up failed: only its identities are finished, nothing is replayed. */
  private async finishCommitted(record: IntentRecord, recordPath: string): Promise<RecoveredSave> {
    const { fs } = this.space;
    const states = await Promise.all(record.changes.map((change) => this.changeState(change)));
    const planned = record.changes.map((change) => fromRecord(this.space, change));
    for (const change of planned) {
      if (change.temp !== null) await removeTemp(fs, change.temp, change.absolutePath);
    }
    const onDisk = planned.filter((_, index) => states[index] === 'applied');
    this.identities.apply(onDisk);
    await this.identities.persistIfChanged();
    await this.recordHistory(record.operationId, onDisk);
    await fs.unlink(recordPath);
    await syncDirectory(dirname(recordPath), { fs });
    return {
      operationId: record.operationId,
      outcome: 'rolled-forward',
      receipts: receiptsOf(record.operationId, onDisk),
      reason:
        'The save had been reported saved; only its identity index update was finished (nothing was written again).',
    };
  }

  private async resolveIntent(record: IntentRecord, recordPath: string): Promise<RecoveredSave> {
    const { fs } = this.space;
    const states = await Promise.all(record.changes.map((change) => this.changeState(change)));
    // Committed once any real change (not a no-op rewrite) is on disk: its rename happened.
    const committed = record.changes.some(
      (change, index) => states[index] === 'applied' && change.version !== change.previousVersion,
    );
    const planned = record.changes.map((change) => fromRecord(this.space, change));
    for (const [index, change] of planned.entries()) {
      if (change.temp !== null) await removeTemp(fs, change.temp, change.absolutePath);
      if (!committed || states[index] !== 'base') continue;
      // Roll forward: the save had passed its commit point, and nobody touched this target since.
      try {
        // Its bytes are kept like a live save's (the live save kept only those it replaced).
        await this.history.keep([change]);
        if (change.content !== null && change.temp !== null) {
          await writeNewFile(fs, change.temp, change.content, change.mode);
          await fs.rename(change.temp, change.absolutePath);
        } else {
          await fs.unlink(change.absolutePath);
        }
        await syncDirectory(dirname(change.absolutePath), { fs });
        states[index] = 'applied';
      } catch {
        if (change.temp !== null) await removeTemp(fs, change.temp, change.absolutePath);
      }
    }
    const applied = planned.filter((_, index) => states[index] === 'applied');
    if (applied.length > 0) {
      this.identities.apply(applied);
      await this.identities.persist();
    }
    const receipts = receiptsOf(record.operationId, applied);
    if (committed) await this.recordHistory(record.operationId, applied);
    if (applied.length === planned.length) {
      await fs.unlink(recordPath);
      await syncDirectory(dirname(recordPath), { fs });
      return {
        operationId: record.operationId,
        outcome: 'rolled-forward',
        receipts,
        reason: 'The save was interrupted after its first rename; it was finished on open.',
      };
    }
    if (!committed) {
      for (const change of planned) {
        for (const dir of [...change.createdDirs].reverse())
          await fs.rmdir(dir).catch(() => undefined);
      }
    }
    const reason = committed
      ? 'The save was interrupted; some objects were changed by someone else before it could be finished.'
      : 'The save was interrupted before any object reached disk; the objects are unchanged.';
    const kept: IntentRecord = {
      ...record,
      status: 'recoverable',
      reason,
      changes: record.changes.map((change, index) => ({
        ...change,
        applied: states[index] === 'applied',
      })),
    };
    await writeRepaFile(fs, this.space.repaDir, recordPath, JSON.stringify(kept));
    return { operationId: record.operationId, outcome: 'recoverable', receipts, reason };
  }
}

/**
 * Moves a record left in the intent slot (by a killed writer, or a save that could not clean up) to
 * `.repa/intents/<operationId>.json` (durably; left as it was when that file already exists), then
 * empties the slot (fsynced). A torn record goes there too, as it is, and is quarantined like any
 * damaged record. Runs under the lock.
 */
export async function drainSlot(space: SpaceResolver, slot: IntentSlot): Promise<void> {
  const content = await slot.read();
  if (content.kind === 'empty') return;
  const { fs, repaDir } = space;
  const path = space.intentPath(content.operationId ?? `intent-slot-${Date.now()}`);
  if (!(await exists(fs, path))) {
    await writeRepaFile(
      fs,
      repaDir,
      path,
      content.kind === 'record' ? content.text : content.bytes,
    );
  }
  await slot.clear(true);
}
