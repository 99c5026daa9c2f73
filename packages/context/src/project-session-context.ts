import { getCurrentTools } from '@earendil-works/pi-ai';
import type {
  CompactionEntry,
  ProjectedSessionEntry,
  SessionProjection,
} from '@earendil-works/pi-coding-agent';
import {
  inspectLearningContextSnapshot,
  isSnapshotMessage,
  LEARNING_CONTEXT_CUSTOM_TYPE,
  snapshotMessageOf,
} from './learning-context-snapshot.js';
import type { AgentMessage, ProjectionSource, SessionEntry } from './pi-types.js';
import { originalOf } from './proxy-registry.js';
import { isStudySummaryMessage } from './study-summary-message.js';

/** Which Repa sources the model's working view includes in a run. */
export interface ModelContextOptions {
  /** Include learning-context snapshots (`prompts.learningContext`, default true). */
  learningContext: boolean;
  /**
   * Include study summaries (`prompts.studySummary`; default true): a part of the learning
   * context, so never without it.
   */
  studySummary?: boolean | undefined;
  /**
   * The system prompt text the model is actually sent (Repa's, spec R34). When set, the
   * projection's system messages (Pi's own persisted sections) are replaced by one system message
   * holding this text and the tools Pi declared, so Pi's token estimates count what is sent.
   */
  systemPrompt?: string | undefined;
}

/**
 * Repa's model view of a session: Pi's own `buildSessionProjection()` (compaction and
 * `context_edit` applied), with every projected message still paired with the raw entry it came
 * from (R44), adjusted for Repa's sources:
 * - `learningContext` off: every Repa snapshot's messages are dropped (the entry stays, with no
 *   messages, like a Pi omission) (R41); so are the study summaries, which are also dropped when
 *   `studySummary` is off (R113).
 * - `learningContext` on, after a compaction: the latest complete snapshot before the latest
 *   compaction entry on the current branch is found by walking back from that compaction (parent
 *   by parent). If it fell out of the kept segment it is placed right after the compaction
 *   summary, paired with its own raw entry;
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
  // Pi asks for the projection up to three times per model request, and the host once or twice
  // more per run (with other options); all see the same branch. Entries never change once appended
  // and every append moves the leaf, so the leaf entry (the object) determines Pi's projection, and
  // the options Repa's adjustments of it.
  const leaf = original.getLeafEntry();
  let kept = lastProjections.get(original);
  if (leaf === undefined || kept?.leaf !== leaf) {
    kept =
      leaf === undefined ? undefined : { leaf, raw: original.buildSessionProjection(), views: [] };
    if (kept) lastProjections.set(original, kept);
  }
  const studySummary = options.learningContext && options.studySummary !== false;
  const cached = kept?.views.find(
    (view) =>
      view.learningContext === options.learningContext &&
      view.studySummary === studySummary &&
      view.systemPrompt === options.systemPrompt,
  );
  if (cached) return copyOf(cached.projection);
  const projection = kept?.raw ?? original.buildSessionProjection();
  const context = options.learningContext
    ? withBackfilledSnapshot(projection, original)
    : without(projection, isSnapshotMessage);
  const adjusted = studySummary ? context : without(context, isStudySummaryMessage);
  const result =
    options.systemPrompt === undefined
      ? adjusted
      : withSystemPrompt(adjusted, options.systemPrompt);
  if (kept) {
    // A host switches between a few option sets; more would only grow the list.
    if (kept.views.length >= MAX_VIEWS) kept.views.shift();
    kept.views.push({
      learningContext: options.learningContext,
      studySummary,
      systemPrompt: options.systemPrompt,
      projection: result,
    });
  }
  return copyOf(result);
}

/** How many option sets are kept per leaf. */
const MAX_VIEWS = 4;

/** Pi's projection of each session's current leaf, and Repa's views of it by options. */
const lastProjections = new WeakMap<
  object,
  {
    leaf: SessionEntry;
    raw: SessionProjection;
    views: {
      learningContext: boolean;
      studySummary: boolean;
      systemPrompt: string | undefined;
      projection: SessionProjection;
    }[];
  }
>();

/** A projection whose lists the caller may change (Pi adds to a request's messages). */
function copyOf(projection: SessionProjection): SessionProjection {
  return { ...projection, entries: [...projection.entries], messages: [...projection.messages] };
}

/**
 * Replaces every system message by one holding `text` and the tools the replaced ones declared,
 * shaped as the request's leading system message (Pi's forced-prompt head: the text as `content`,
 * no sections). It stays paired with the raw entry of the first system message; a projection
 * without system messages is returned as is.
 */
function withSystemPrompt(projection: SessionProjection, text: string): SessionProjection {
  const system = projection.messages.filter((message) => message.role === 'system');
  const [first] = system;
  if (!first) return projection;
  const toolsAdded = getCurrentTools(system);
  const head = {
    role: 'system',
    content: text,
    ...(toolsAdded.length > 0 ? { toolsAdded } : {}),
    timestamp: first.timestamp,
  } as AgentMessage;
  let placed = false;
  return rebuild(
    projection,
    projection.entries.map((entry) => {
      if (!entry.messages.some((message) => message.role === 'system')) return entry;
      const messages = entry.messages.flatMap((message) => {
        if (message.role !== 'system') return [message];
        if (placed) return [];
        placed = true;
        return [head];
      });
      return { sourceEntry: entry.sourceEntry, messages };
    }),
  );
}

/** The projection without the messages `drop` picks (their entries stay, with no messages). */
function without(
  projection: SessionProjection,
  drop: (message: AgentMessage) => boolean,
): SessionProjection {
  if (!projection.messages.some(drop)) return projection;
  return rebuild(
    projection,
    projection.entries.map((entry) =>
      entry.messages.some(drop)
        ? { sourceEntry: entry.sourceEntry, messages: entry.messages.filter((m) => !drop(m)) }
        : entry,
    ),
  );
}

function withBackfilledSnapshot(
  projection: SessionProjection,
  source: ProjectionSource,
): SessionProjection {
  // Pi projects the newest compaction first, as the only compaction with messages.
  const head = projection.entries[0];
  if (head?.sourceEntry.type !== 'compaction' || head.messages.length === 0) {
    return projection;
  }
  const compaction: CompactionEntry = head.sourceEntry;

  // Walk back from the compaction to the latest complete snapshot before it. The cost depends on
  // the distance between the two, not on the session's length (no full `getBranch()` walk).
  const editedBeforeCompaction = new Set<string>();
  let snapshot: SessionEntry | undefined;
  let parentId = compaction.parentId;
  while (parentId !== null) {
    const entry = source.getEntry(parentId);
    if (!entry) break;
    if (mayBeSnapshot(entry) && inspectLearningContextSnapshot(entry)?.complete) {
      snapshot = entry;
      break;
    }
    if (entry.type === 'context_edit') editedBeforeCompaction.add(entry.targetId);
    parentId = entry.parentId;
  }
  if (!snapshot) return projection;
  const snapshotId = snapshot.id;
  if (editedBeforeCompaction.has(snapshotId)) return projection;
  for (const { sourceEntry } of projection.entries) {
    // Still in the kept segment: Pi already placed it (and applied any edit to it).
    if (sourceEntry.id === snapshotId) return projection;
    // Omitted or replaced by Pi's explicit context edit: never resurrect the old body. Pi's
    // `appendContextEdit()` (also used for draft edits) only targets an entry already on the
    // branch, so an edit always follows its target: the entries walked above plus the projected
    // ones (every entry after the compaction) hold every edit that can target the snapshot.
    if (sourceEntry.type === 'context_edit' && sourceEntry.targetId === snapshotId) {
      return projection;
    }
  }
  const message = snapshotMessageOf(snapshot);
  if (!message) return projection;
  const backfill: ProjectedSessionEntry = { sourceEntry: snapshot, messages: [message] };
  // Placed right after the compaction summary: the head's messages come first in Pi's list.
  const at = head.messages.length;
  return {
    entries: [head, backfill, ...projection.entries.slice(1)],
    messages: [...projection.messages.slice(0, at), message, ...projection.messages.slice(at)],
    thinkingLevel: projection.thinkingLevel,
    model: projection.model,
  };
}

/** A cheap pre-check: false for every entry `snapshotMessageOf()` would not read as a snapshot. */
function mayBeSnapshot(entry: SessionEntry): boolean {
  if (entry.type === 'custom_message') return entry.customType === LEARNING_CONTEXT_CUSTOM_TYPE;
  return entry.type === 'message' && entry.message.role === 'custom';
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
