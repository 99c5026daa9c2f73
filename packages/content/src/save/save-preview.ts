import type { SaveDiff } from '@repa/protocol';
import { diffOfSave } from '../history/index.js';
import type { SpaceResolver } from '../space/index.js';
import { checkExpectation, type PlannedChange } from './save-planner.js';

/** A planned save as it is shown before anything is written (`SaveOptions.approve`). */
export interface SavePreview {
  /**
   * What the save would change in each file, from the bytes at the versions it is checked against
   * to the bytes it writes (a move as one diff, bounded like a save's own diffs).
   */
  diffs: SaveDiff[];
  /** Every file the save writes, moves or deletes, in the order of its changes. */
  targets: string[];
}

/**
 * The preview of `plan` (checked under the lock): each target's bytes are read once more and must
 * be the version the plan checked, so the diff is of exactly the bytes the save replaces.
 */
export async function previewSave(
  space: SpaceResolver,
  plan: readonly PlannedChange[],
): Promise<SavePreview> {
  const before = new Map<PlannedChange, Buffer | null>();
  for (const change of plan) {
    const current = await space.currentVersion(change.absolutePath, change.target);
    checkExpectation(change.target, change.previousVersion, current);
    before.set(change, current?.bytes ?? null);
  }
  // A move is a delete and a create of one identity: one diff, from the old path's bytes.
  const movedFrom = (change: PlannedChange) =>
    change.content !== null && change.identityFrom !== undefined
      ? plan.find((other) => other.content === null && other.identity === change.identity)
      : undefined;
  const moves = new Set(plan.map(movedFrom).filter((from) => from !== undefined));
  const diffs: SaveDiff[] = [];
  for (const change of plan) {
    if (moves.has(change)) continue;
    const from = movedFrom(change);
    const replaced = from === undefined ? before.get(change) : before.get(from);
    diffs.push(
      diffOfSave(
        from?.target ?? change.target,
        replaced ?? null,
        change.content,
        {},
        change.target,
      ),
    );
  }
  return { diffs, targets: plan.map((change) => change.target) };
}
