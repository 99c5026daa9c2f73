import type { CommandChange, RunChangeKind } from '@repa/protocol';
import type { SaveRecord } from '../history/index.js';

/** One file a group of saves (a run's) changed, from before its first save to after its last. */
export interface RunFileChange {
  /** What the saves did, taken together. */
  change: RunChangeKind;
  /** The path before the saves (for a created file: where it was made). */
  target: string;
  /** For a move: where the file is after the saves. */
  movedTo?: string;
  /** The version before the first save (`null`: no file). */
  before: string | null;
  /** The version after the last save, at `movedTo` for a move (`null`: deleted). */
  after: string | null;
  /** Whether the first save kept the bytes of `before`. */
  kept: boolean;
  /** The operation ids of the saves that touched it, in order. */
  operationIds: string[];
}

interface PathState {
  target: string;
  before: string | null;
  after: string | null;
  kept: boolean;
  identity: string | undefined;
  operationIds: string[];
}

/**
 * The net changes of `records` (one group's saves, in operation order): per file the version
 * before the first save and after the last; a file deleted and another created with the same
 * identity make one move. Files changed by commands are listed apart: they have no receipts.
 */
export function netChanges(records: readonly SaveRecord[]): {
  files: RunFileChange[];
  commands: CommandChange[];
} {
  const paths = new Map<string, PathState>();
  const commands: CommandChange[] = [];
  for (const record of records) {
    for (const change of record.changes) {
      if (record.kind === 'command') {
        if (!commands.some((known) => known.target === change.target)) {
          commands.push({ target: change.target, operationId: record.operationId });
        }
        continue;
      }
      const known = paths.get(change.target);
      if (known === undefined) {
        paths.set(change.target, {
          target: change.target,
          before: change.previousVersion,
          after: change.version,
          kept: change.kept,
          identity: change.identity,
          operationIds: [record.operationId],
        });
      } else {
        known.after = change.version;
        known.identity = change.identity ?? known.identity;
        if (!known.operationIds.includes(record.operationId)) {
          known.operationIds.push(record.operationId);
        }
      }
    }
  }
  const states = [...paths.values()].filter((state) => state.before !== state.after);
  const created = states.filter((state) => state.before === null);
  // A file deleted and one created with its identity: the identity moved (apply_patch's move).
  const moves = new Map<PathState, PathState>();
  const paired = new Set<PathState>();
  for (const state of states) {
    if (state.before === null || state.after !== null || state.identity === undefined) continue;
    const to = created.find((other) => !paired.has(other) && other.identity === state.identity);
    if (to === undefined) continue;
    moves.set(state, to);
    paired.add(to);
  }
  const files: RunFileChange[] = [];
  for (const state of states) {
    if (paired.has(state)) continue;
    const { target, before, after, kept, operationIds } = state;
    const to = moves.get(state);
    if (to !== undefined) {
      const ids = [...new Set([...operationIds, ...to.operationIds])].sort(byOperation);
      files.push({
        change: 'moved',
        target,
        movedTo: to.target,
        before,
        after: to.after,
        kept,
        operationIds: ids,
      });
      continue;
    }
    const change: RunChangeKind =
      before === null ? 'created' : after === null ? 'deleted' : 'modified';
    files.push({ change, target, before, after, kept, operationIds });
  }
  files.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return { files, commands };
}

/** Orders `<group>-<n>` operation ids by `n`. */
function byOperation(a: string, b: string): number {
  const n = (id: string) => Number(id.slice(id.lastIndexOf('-') + 1));
  return n(a) - n(b);
}
