import { fauxAssistantMessage } from '@earendil-works/pi-ai';
import type {
  SessionEntry,
  SessionManager,
  SessionProjection,
} from '@earendil-works/pi-coding-agent';
import { appendLearningContextSnapshot } from '../append-learning-context-snapshot.js';
import type { LearningContextView } from '../learning-context-file.js';
import type { AgentMessage } from '../pi-types.js';
import { memory } from './memory-session.js';

/** A learning-context view with `revision` and a body derived from it. */
export function view(
  revision: string,
  body = `Body of revision ${revision}.`,
): LearningContextView {
  return { revision, body, sources: [`notes/r${revision}.md`] };
}

/** The entry `id` of `sm`; throws when it does not exist. */
export function entry(sm: SessionManager, id: string): SessionEntry {
  const found = sm.getEntry(id);
  if (!found) throw new Error(`no entry ${id}`);
  return found;
}

/** Appends a user message; returns its entry id. */
export function user(sm: SessionManager, text: string): string {
  return sm.appendMessage({ role: 'user', content: text, timestamp: Date.now() });
}

/** Appends an assistant reply; returns its entry id. */
export function assistant(sm: SessionManager, text: string): string {
  return sm.appendMessage(fauxAssistantMessage(text));
}

/** Appends a system message patching the prompt `sections`; returns its entry id. */
export function system(
  sm: SessionManager,
  sections: Record<string, string>,
  timestamp = 1,
): string {
  return sm.appendMessage({ role: 'system', content: '', sections, timestamp } as never);
}

/** Counts Pi's own projections of `sm` from now on (each one walks the whole branch). */
export function countProjections(sm: SessionManager): { count: number } {
  const project = sm.buildSessionProjection.bind(sm);
  const counter = { count: 0 };
  sm.buildSessionProjection = () => {
    counter.count += 1;
    return project();
  };
  return counter;
}

/** Appends a user message and an assistant reply; returns the user entry id. */
export function exchange(sm: SessionManager, text: string): string {
  const id = user(sm, text);
  assistant(sm, `re: ${text}`);
  return id;
}

/** Appends a snapshot of `view(revision)`; returns its entry id. */
export function snapshot(sm: SessionManager, revision: string): string {
  return appendLearningContextSnapshot(sm, view(revision));
}

/** Appends a compaction keeping entries from `firstKeptEntryId`; returns its entry id. */
export function compaction(sm: SessionManager, summary: string, firstKeptEntryId: string): string {
  return sm.appendCompaction(summary, firstKeptEntryId, 1000);
}

/** A short label per message: `user:hi`, `assistant:re: hi`, `summary:S1`, `snapshot:r1`, `system`. */
export function label(message: AgentMessage): string {
  switch (message.role) {
    case 'user':
      return `user:${typeof message.content === 'string' ? message.content : textOf(message.content)}`;
    case 'assistant':
      return `assistant:${textOf(message.content)}`;
    case 'compactionSummary':
      return `summary:${message.summary}`;
    case 'branchSummary':
      return `branch:${message.summary}`;
    case 'custom': {
      const details = message.details as { revision?: string } | undefined;
      return message.customType === 'repa.learning-context'
        ? `snapshot:r${details?.revision ?? '?'}`
        : `custom:${message.customType}`;
    }
    default:
      return message.role;
  }
}

/** The labels of a projection's messages, leaving out Pi's system messages. */
export function labels(projection: { messages: AgentMessage[] }): string[] {
  return projection.messages.filter((m) => m.role !== 'system').map(label);
}

/** `entryId → labels` for every projected entry that contributes messages. */
export function sources(projection: SessionProjection): [string, string[]][] {
  return projection.entries
    .filter((entry) => entry.messages.some((m) => m.role !== 'system'))
    .map((entry) => [
      entry.sourceEntry.id,
      entry.messages.filter((m) => m.role !== 'system').map(label),
    ]);
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
}

/**
 * A new session: snapshot r1, the exchanges "one" and "two" (`between` runs after "one"), then a
 * compaction to summary S1 keeping "two". The session, and the ids of the snapshot and of "one".
 */
export function compactedPastSnapshot(between?: (sm: SessionManager, snapshotId: string) => void): {
  sm: SessionManager;
  snapshotId: string;
  one: string;
} {
  const sm = memory();
  const snapshotId = snapshot(sm, '1');
  const one = exchange(sm, 'one');
  between?.(sm, snapshotId);
  compaction(sm, 'S1', exchange(sm, 'two'));
  return { sm, snapshotId, one };
}
