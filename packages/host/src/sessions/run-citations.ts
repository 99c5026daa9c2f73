import type { AgentSession, SessionManager } from '@earendil-works/pi-coding-agent';
import {
  type ContentStore,
  checkAnswerCitations,
  citationReadings,
  markChangedSince,
} from '@repa/content';
import type { Citation, HistoryItem } from '@repa/protocol';

/** The `customType` of the session entry that keeps an answer's checked citations. */
export const CITATIONS_ENTRY = 'repa.citations';

/** What a `repa.citations` entry holds: the answer's entry id and its citations. */
interface CitationsEntryData {
  entryId: string;
  citations: Citation[];
}

/**
 * Checks the citations of a run's final answer against what the conversation's `read` results
 * showed the model (spec R60; no model call), and keeps them beside the answer in the session
 * (a custom entry the model never sees) for `session.history`.
 */
export async function checkRunCitations(
  store: ContentStore,
  session: AgentSession,
  sessionManager: SessionManager,
  answer: string,
): Promise<Citation[]> {
  const citations = await checkAnswerCitations(store, answer, citationReadings(session.messages));
  if (citations.length === 0) return [];
  const branch = sessionManager.getBranch();
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry?.type !== 'message' || entry.message.role !== 'assistant') continue;
    const data: CitationsEntryData = { entryId: entry.id, citations };
    sessionManager.appendCustomEntry(CITATIONS_ENTRY, data);
    break;
  }
  return citations;
}

/** The answers' citations kept in a branch's `repa.citations` entries, by answer entry id. */
export function citationsByAnswer(
  entries: readonly { type: string; customType?: string; data?: unknown }[],
): Map<string, Citation[]> {
  const found = new Map<string, Citation[]>();
  for (const entry of entries) {
    if (entry.type !== 'custom' || entry.customType !== CITATIONS_ENTRY) continue;
    const data = entry.data as Partial<CitationsEntryData> | undefined;
    if (typeof data?.entryId === 'string' && Array.isArray(data.citations)) {
      found.set(data.entryId, data.citations);
    }
  }
  return found;
}

/** History items with each answer's citations, as shown now (`changedSince` when edited since). */
export async function withCitations(
  store: () => Promise<ContentStore>,
  items: HistoryItem[],
  byAnswer: ReadonlyMap<string, Citation[]>,
): Promise<HistoryItem[]> {
  if (byAnswer.size === 0) return items;
  const opened = await store();
  // One read of each cited document for all the answers (a long session cites a few many times).
  const current = new Map<string, string | null>();
  const shown: HistoryItem[] = [];
  for (const item of items) {
    const citations = item.kind === 'assistant' ? byAnswer.get(item.entryId) : undefined;
    shown.push(
      citations ? { ...item, citations: await markChangedSince(opened, citations, current) } : item,
    );
  }
  return shown;
}
