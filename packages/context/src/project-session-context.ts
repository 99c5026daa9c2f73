import type {
  CompactionEntry,
  ProjectedSessionEntry,
  SessionProjection,
} from '@earendil-works/pi-coding-agent';
import {
  inspectLearningContextSnapshot,
  isSnapshotMessage,
  snapshotMessageOf,
} from './learning-context-snapshot.js';
import type { ProjectionSource, SessionEntry } from './pi-types.js';
import { originalOf } from './proxy-registry.js';

/** Which Repa sources the model's working view includes in a run. */
export interface ModelContextOptions {
  /** Include learning-context snapshots (`prompts.learningContext`, default true). */
  learningContext: boolean;
}

/**
 * Repa's model view of a session: Pi's own `buildSessionProjection()` (compaction and
 * `context_edit` applied), with every projected message still paired with the raw entry it came
 * from (R44), adjusted for Repa's sources:
 * - `learningContext` off: every Repa snapshot's messages are dropped (the entry stays, with no
 *   messages, like a Pi omission) (R41).
 * - `learningContext` on, after a compaction: the latest complete snapshot before the latest
 *   compaction entry on the current branch is found through `getBranch()`. If it fell out of the
 *   kept segment it is placed right after the compaction summary, paired with its own raw entry;
 *   if it is still in the kept segment it stays where Pi put it; if any `context_edit` on the
 *   branch omitted or replaced it, it is not resurrected (and no older snapshot is used) (R42).
 *
 * Given a `withModelContext` proxy, it reads the original instance. Writes nothing.
 */
export function projectSessionContext(
  sessionManager: ProjectionSource,
  options: ModelContextOptions,
): SessionProjection {
  const original = originalOf(sessionManager);
  const projection = original.buildSessionProjection();
  if (!options.learningContext) return withoutSnapshots(projection);
  return withBackfilledSnapshot(projection, original.getBranch());
}

function withoutSnapshots(projection: SessionProjection): SessionProjection {
  if (!projection.messages.some(isSnapshotMessage)) return projection;
  return rebuild(
    projection,
    projection.entries.map((entry) =>
      entry.messages.some(isSnapshotMessage)
        ? {
            sourceEntry: entry.sourceEntry,
            messages: entry.messages.filter((m) => !isSnapshotMessage(m)),
          }
        : entry,
    ),
  );
}

function withBackfilledSnapshot(
  projection: SessionProjection,
  branch: SessionEntry[],
): SessionProjection {
  // Pi projects the newest compaction first, as the only compaction with messages.
  const head = projection.entries[0];
  if (head?.sourceEntry.type !== 'compaction' || head.messages.length === 0) {
    return projection;
  }
  const compaction: CompactionEntry = head.sourceEntry;
  const boundary = branch.findIndex((entry) => entry.id === compaction.id);
  if (boundary < 0) return projection;

  let snapshot: SessionEntry | undefined;
  for (let index = boundary - 1; index >= 0; index--) {
    const entry = branch[index] as SessionEntry;
    if (inspectLearningContextSnapshot(entry)?.complete) {
      snapshot = entry;
      break;
    }
  }
  if (!snapshot) return projection;
  const snapshotId = snapshot.id;
  // Still in the kept segment: Pi already placed it (and applied any edit to it).
  if (projection.entries.some((entry) => entry.sourceEntry.id === snapshotId)) return projection;
  // Omitted or replaced by Pi's explicit context edit: never resurrect the old body.
  if (branch.some((entry) => entry.type === 'context_edit' && entry.targetId === snapshotId)) {
    return projection;
  }
  const message = snapshotMessageOf(snapshot);
  if (!message) return projection;
  const backfill: ProjectedSessionEntry = { sourceEntry: snapshot, messages: [message] };
  return rebuild(projection, [head, backfill, ...projection.entries.slice(1)]);
}

function rebuild(
  projection: SessionProjection,
  entries: ProjectedSessionEntry[],
): SessionProjection {
  return {
    entries,
    messages: entries.flatMap((entry) => entry.messages),
    thinkingLevel: projection.thinkingLevel,
    model: projection.model,
  };
}
