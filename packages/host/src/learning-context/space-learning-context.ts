import { SessionManager } from '@earendil-works/pi-coding-agent';
import {
  inspectLearningContextSnapshot,
  type LearningContextRecord,
  type LearningContextSourceVersion,
  type LearningContextView,
  readLearningContextRecord,
  writeLearningContext,
} from '@repa/context';
import { type LearningContext, RepaError } from '@repa/protocol';
import { findSessionState, sessionFileEntries } from '../sessions/index.js';
import {
  checkLearningContextSources,
  readLearningContextSources,
} from './learning-context-sources.js';

/**
 * A space's learning context, or null when it has none; `context_unavailable` when it is damaged.
 * Each source's state (changed or vanished since the context was written) is in `sourceStates`.
 */
export async function getLearningContext(space: string): Promise<LearningContext | null> {
  const record = await readLearningContextRecord(space);
  if (!record) return null;
  return {
    body: record.body,
    sources: record.sources,
    revision: record.revision,
    updatedAt: record.updatedAt,
    sourceStates: (
      await checkLearningContextSources(space, record.sources, record.sourceVersions)
    ).map((status) => ({ ...status })),
  };
}

/** What {@link setLearningContext} writes. */
export interface SetLearningContextInput {
  /** The full new body. */
  body: string;
  /** The space-relative sources it was built from (a source the context already names keeps its recorded version; a new one is hashed now). */
  sources: readonly string[];
  /** The revision the caller read; null when it read none; undefined: whatever is there. */
  expectedRevision: string | null | undefined;
  /** The versions the body was built from (a build read them); when absent, see `sources`. */
  sourceVersions?: readonly LearningContextSourceVersion[] | undefined;
  /** Replace a damaged file, keeping its bytes beside it. */
  force?: boolean | undefined;
}

/**
 * Replaces a space's learning context when its revision is still `expectedRevision` (null: when the
 * space has none), else throws `stale_version` with the current revision in `details`. Without
 * `sourceVersions` (an edit, not a build) a source the context already names keeps the version its
 * body was built from, so an edit never hides that a source changed since (spec R40); a new source's
 * current bytes are hashed. The check and the write are not atomic against other processes: callers
 * serialize the writes of one space.
 */
export async function setLearningContext(
  space: string,
  input: SetLearningContextInput,
): Promise<LearningContext & { damagedFileKept?: string }> {
  const versions = input.sourceVersions ?? (await editedSourceVersions(space, input.sources));
  const view = await writeLearningContext(
    space,
    {
      body: input.body,
      sources: versions.map((version) => version.path),
      sourceVersions: versions,
    },
    {
      force: input.force,
      check: (current) => {
        if (input.expectedRevision !== undefined) expectRevision(current, input.expectedRevision);
      },
    },
  );
  return {
    body: view.body,
    sources: view.sources,
    revision: view.revision,
    ...(view.damagedFileKept ? { damagedFileKept: view.damagedFileKept } : {}),
  };
}

/**
 * The versions an edit records: each source's recorded version when the current context names it
 * (by its checked path), else its bytes now. A damaged context file records none (a forced write).
 */
async function editedSourceVersions(
  space: string,
  sources: readonly string[],
): Promise<LearningContextSourceVersion[]> {
  const recorded = await readLearningContextRecord(space).catch(() => null);
  const byPath = new Map(
    (recorded?.sourceVersions ?? []).map((version) => [version.path, version]),
  );
  return (await readLearningContextSources(space, sources)).map(
    ({ version }) => byPath.get(version.path) ?? version,
  );
}

/** The learning-context revision last given to a session (null: none yet); reads, never writes. */
export async function lastProvidedRevision(
  space: string,
  sessionId: string,
): Promise<string | null> {
  const { file } = await findSessionState(space, sessionId);
  const manager = SessionManager.inMemory(space, undefined, [...(await sessionFileEntries(file))]);
  for (const entry of [...manager.getBranch()].reverse()) {
    const info = inspectLearningContextSnapshot(entry);
    if (info?.revision) return info.revision;
  }
  return null;
}

/** Throws `stale_version` unless `current` is at `expected` (null: no context). */
export function expectRevision(
  current: LearningContextView | LearningContextRecord | null,
  expected: string | null,
): void {
  const revision = current?.revision ?? null;
  if (revision === expected) return;
  throw new RepaError(
    'stale_version',
    revision === null
      ? `The space has no learning context (expected revision ${expected}).`
      : `The learning context is at revision ${revision}, not ${expected ?? 'absent'}.`,
    {
      fix: 'Read it again (context.get), merge your change, and write with its revision.',
      details: { currentRevision: revision },
    },
  );
}
