import type { LearningContextView } from './learning-context-file.js';
import { inspectLearningContextSnapshot } from './learning-context-snapshot.js';
import type { ProjectionSource } from './pi-types.js';
import { type ModelContextOptions, projectSessionContext } from './project-session-context.js';

/** Whether a run must append a new snapshot before its user message, and why. */
export interface LearningContextSnapshotDecision {
  /** True when the host must append a snapshot of the current view (R32). */
  append: boolean;
  /**
   * `disabled`: `learningContext` is off. `no-context`: the space has no learning context.
   * `missing`: the working view holds no complete snapshot. `changed`: the latest complete one
   * differs from the current view. `current`: it matches.
   */
  reason: 'disabled' | 'no-context' | 'missing' | 'changed' | 'current';
  /** The latest complete snapshot in the working view, if any. */
  latest: { entryId: string; revision: string } | null;
}

/**
 * Compares the current learning-context view with the latest complete snapshot in the working
 * projection (current branch, after compaction and backfill, with Pi's context edits applied).
 * Missing or different (revision, body or sources) → `append: true` (R32). Truncated or rewritten
 * snapshots do not count as complete (R46).
 */
export function decideLearningContextSnapshot(
  sessionManager: ProjectionSource,
  view: LearningContextView | null,
  options: ModelContextOptions,
): LearningContextSnapshotDecision {
  if (!options.learningContext) return { append: false, reason: 'disabled', latest: null };
  const projection = projectSessionContext(sessionManager, { learningContext: true });
  for (const entry of [...projection.entries].reverse()) {
    for (const message of [...entry.messages].reverse()) {
      const info = inspectLearningContextSnapshot(message);
      if (!info?.complete || info.revision === null) continue;
      const latest = { entryId: entry.sourceEntry.id, revision: info.revision };
      if (view === null) return { append: false, reason: 'no-context', latest };
      const same =
        info.revision === view.revision &&
        info.body === view.body &&
        JSON.stringify(info.sources) === JSON.stringify(view.sources);
      return same
        ? { append: false, reason: 'current', latest }
        : { append: true, reason: 'changed', latest };
    }
  }
  return view === null
    ? { append: false, reason: 'no-context', latest: null }
    : { append: true, reason: 'missing', latest: null };
}
