import { unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type SessionEntry, SessionManager } from '@earendil-works/pi-coding-agent';
import { ContentStore } from '@repa/content';
import { ioError, syncDirectory } from '@repa/durable-fs';
import {
  type HistoryItem,
  type HistoryToolCall,
  RepaError,
  type SessionInfo,
  toolCallTarget,
} from '@repa/protocol';
import {
  fileChangeSchema,
  idSchema,
  saveDiffSchema,
  saveReceiptSchema,
} from '@repa/protocol/schemas';
import { z } from 'zod';
import { citationsByAnswer, withCitations } from './run-citations.js';
import { RUN_MARK, type RunInHistory, runsInHistory } from './run-marks.js';
import {
  createSessionFile,
  type SessionFileState,
  sessionFileEntries,
  sessionFileState,
} from './session-files.js';
import { assertRealFolders, listSessionFiles, sessionIdOfFileName } from './session-folders.js';
import { textOf } from './session-text.js';

/** Where a space keeps its Pi session files. */
export function sessionDirectoryOf(space: string): string {
  return join(space, '.repa', 'sessions');
}

/** Creates a session in a space; its identity is on disk before this returns (spec R48). */
export async function createSpaceSession(space: string, title?: string): Promise<SessionInfo> {
  const file = await createSessionFile(space, sessionDirectoryOf(space));
  const manager = SessionManager.open(file, sessionDirectoryOf(space), space);
  if (title) manager.appendSessionInfo(title);
  const header = manager.getHeader();
  if (!header) throw new RepaError('internal', `Session file ${file} has no header.`);
  return {
    sessionId: header.id,
    space,
    createdAt: header.timestamp,
    ...(title ? { title } : {}),
  };
}

/** The state of a session file, or undefined when it went away meanwhile. */
async function stateOf(file: string): Promise<SessionFileState | undefined> {
  try {
    return await sessionFileState(file);
  } catch (error) {
    if (RepaError.isInstance(error) && error.code === 'not_found') return undefined;
    throw error;
  }
}

/**
 * The sessions of a space, newest first, as Pi's own listing names and dates them, built from the
 * cached checks of each file (Pi's listing would stream every file, and wait forever on a FIFO). A
 * damaged session is listed too, with `damaged` saying why.
 */
export async function listSpaceSessions(space: string): Promise<SessionInfo[]> {
  const dir = sessionDirectoryOf(space);
  assertRealFolders(space, dir);
  const sessions: SessionInfo[] = [];
  for (const file of await listSessionFiles(dir)) {
    const state = await stateOf(file);
    if (!state) continue;
    const { name, lastActivity } = state.summary ?? {};
    const created = state.createdAt ?? state.modifiedAt;
    sessions.push({
      sessionId: state.sessionId,
      space,
      createdAt: created,
      updatedAt: lastActivity ? new Date(lastActivity).toISOString() : created,
      ...(name ? { title: name } : {}),
      ...(state.damage ? { damaged: state.damage.toWire() } : {}),
    });
  }
  return sessions.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
}

/**
 * The state of a session id's file in a space: Pi names files `<time>_<id>.jsonl`, so only a file
 * named otherwise makes this look at the others (each look is cached by the file's stat key).
 */
export async function findSessionState(
  space: string,
  sessionId: string,
): Promise<{ file: string; state: SessionFileState }> {
  assertRealFolders(space, sessionDirectoryOf(space));
  const files = await listSessionFiles(sessionDirectoryOf(space));
  const named = (file: string) => sessionIdOfFileName(file).sessionId === sessionId;
  for (const file of [...files.filter(named), ...files.filter((file) => !named(file))]) {
    const state = await stateOf(file);
    if (state?.sessionId === sessionId) return { file, state };
  }
  throw new RepaError('not_found', `Space ${space} has no session ${sessionId}.`, {
    fix: 'List the sessions of the space (session.list) or create one (session.create).',
  });
}

/**
 * Deletes a session's file (a damaged one too); the caller makes sure no run uses it. Only the
 * name inside `.repa/sessions` is removed: a symlink there goes, never what it points to.
 */
export async function deleteSpaceSession(space: string, sessionId: string): Promise<void> {
  const { file } = await findSessionState(space, sessionId);
  try {
    await unlink(file);
  } catch (error) {
    throw ioError(error, `Deleting session file ${file}`);
  }
  await syncDirectory(dirname(file));
}

/** The session file of a session id in a space; `not_found`, or `session_damaged` when damaged. */
export async function findSessionFile(space: string, sessionId: string): Promise<string> {
  const { file, state } = await findSessionState(space, sessionId);
  if (state.damage) throw state.damage;
  return file;
}

const toolDetailsSchema = z.looseObject({
  operationId: idSchema.optional(),
  receipts: z.array(saveReceiptSchema).optional(),
  diffs: z.array(saveDiffSchema).optional(),
});

const snapshotDetailsSchema = z.looseObject({
  revision: z.string(),
  sources: z.array(z.string()),
});

const noticeDetailsSchema = z.looseObject({ changes: z.array(fileChangeSchema) });

/** The tool calls of an assistant message's content, each with what it works on. */
function toolCallsOf(content: unknown): HistoryToolCall[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap(
    (block: { type?: string; id?: string; name?: string; arguments?: unknown }) => {
      if (block.type !== 'toolCall' || typeof block.id !== 'string') return [];
      const target = toolCallTarget(block.arguments);
      return [{ toolCallId: block.id, toolName: block.name ?? '', ...(target ? { target } : {}) }];
    },
  );
}

/** The facts a saving tool's result keeps in its `details` (receipts, diffs, operation id). */
function saveFactsOf(details: unknown): Partial<HistoryItem> {
  // Only a saving tool's details carry these fields: the others need no parse.
  if (typeof details !== 'object' || details === null) return {};
  if (!('operationId' in details) && !('receipts' in details)) return {};
  const parsed = toolDetailsSchema.safeParse(details);
  if (!parsed.success) return {};
  const { operationId, receipts, diffs } = parsed.data;
  return {
    ...(operationId ? { operationId } : {}),
    ...(receipts?.length ? { receipts } : {}),
    ...(diffs?.length ? { diffs } : {}),
  };
}

function historyItemOf(entry: SessionEntry, runId: string | undefined): HistoryItem | undefined {
  const base = { entryId: entry.id, timestamp: entry.timestamp, ...(runId ? { runId } : {}) };
  switch (entry.type) {
    case 'message': {
      const message = entry.message as {
        role: string;
        content?: unknown;
        toolName?: string;
        toolCallId?: string;
        isError?: boolean;
        stopReason?: string;
        errorMessage?: string;
        details?: unknown;
      };
      // Pi's system entries (prompt and tool configuration) stay raw (spec R27).
      if (message.role === 'user') return { ...base, kind: 'user', text: textOf(message.content) };
      if (message.role === 'assistant') {
        const outcome =
          message.stopReason === 'aborted'
            ? 'cancelled'
            : message.stopReason === 'error'
              ? 'failed'
              : undefined;
        const toolCalls = toolCallsOf(message.content);
        return {
          ...base,
          kind: 'assistant',
          text: textOf(message.content),
          ...(outcome ? { outcome } : {}),
          ...(outcome === 'failed' && message.errorMessage ? { error: message.errorMessage } : {}),
          ...(toolCalls.length > 0
            ? { toolCalls, answerText: textOf(message.content, { toolCalls: false }) }
            : {}),
        };
      }
      if (message.role === 'toolResult') {
        return {
          ...base,
          kind: 'tool-result',
          text: textOf(message.content),
          ...(message.toolName ? { toolName: message.toolName } : {}),
          ...(message.toolCallId ? { toolCallId: message.toolCallId } : {}),
          isError: message.isError === true,
          ...saveFactsOf(message.details),
        };
      }
      return undefined;
    }
    case 'custom_message':
      if (entry.customType === 'repa.learning-context') {
        const details = snapshotDetailsSchema.safeParse(entry.details);
        return {
          ...base,
          kind: 'context-snapshot',
          text: textOf(entry.content),
          ...(details.success
            ? { revision: details.data.revision, sources: details.data.sources }
            : {}),
        };
      }
      if (entry.customType === 'repa.file-changes') {
        const details = noticeDetailsSchema.safeParse(entry.details);
        return {
          ...base,
          kind: 'file-change-notice',
          text: textOf(entry.content),
          ...(details.success ? { changes: details.data.changes } : {}),
        };
      }
      return undefined;
    case 'compaction':
      return { ...base, kind: 'compaction-summary', text: entry.summary };
    case 'branch_summary':
      return { ...base, kind: 'branch-summary', text: entry.summary };
    default:
      return undefined;
  }
}

/** The public items of a branch, each with the run whose mark precedes it. */
function historyItemsOf(branch: readonly SessionEntry[]): HistoryItem[] {
  let runId: string | undefined;
  return branch.flatMap((entry) => {
    if (entry.type === 'custom' && entry.customType === RUN_MARK) {
      const marked = (entry.data as { runId?: unknown } | undefined)?.runId;
      // A mark read back from the file is checked like any id on the wire.
      runId = idSchema.safeParse(marked).success ? (marked as string) : undefined;
      return [];
    }
    return historyItemOf(entry, runId) ?? [];
  });
}

/** A part of a history: the last `limit` items (default: all) before the entry `before`. */
export interface HistoryPart {
  limit?: number | undefined;
  before?: string | undefined;
}

/**
 * The public history of a session's current branch (spec R27), whole or the part asked for: the
 * real exchange, tool results, context snapshots, file-change notices and summaries; never Pi's
 * system entries; `earlier` when items precede the part. `not_found` for a `before` the branch
 * does not hold. Never writes the session file; a damaged one is `session_damaged`.
 */
export async function readSessionHistory(
  space: string,
  sessionId: string,
  appDirectory?: string,
  part: HistoryPart = {},
): Promise<{ items: HistoryItem[]; earlier?: boolean }> {
  const { file } = await findSessionState(space, sessionId);
  // From the checked entries in memory: opening the file with Pi would repair a torn last line,
  // and a read never writes.
  const manager = SessionManager.inMemory(space, undefined, [...(await sessionFileEntries(file))]);
  const branch = manager.getBranch();
  const all = historyItemsOf(branch);
  let end = all.length;
  if (part.before !== undefined) {
    end = all.findIndex((item) => item.entryId === part.before);
    if (end === -1) {
      throw new RepaError('not_found', `The session's history has no entry ${part.before}.`, {
        fix: 'Read the history again from its end (session.history without before).',
      });
    }
  }
  const start = part.limit === undefined ? 0 : Math.max(0, end - part.limit);
  // An answer of the part carries its checked citations, marked when a cited document changed
  // since (each document read once for the part; the rest of the history is not looked at).
  const store = () => ContentStore.open({ root: space, ...(appDirectory ? { appDirectory } : {}) });
  const items = await withCitations(store, all.slice(start, end), citationsByAnswer(branch));
  return { items, ...(start > 0 ? { earlier: true } : {}) };
}

/**
 * The runs marked on a session's current branch, oldest first, with whether each one's message
 * entered the history (read from the file; never writes it).
 */
export async function sessionRunMarks(space: string, sessionId: string): Promise<RunInHistory[]> {
  const { file } = await findSessionState(space, sessionId);
  const manager = SessionManager.inMemory(space, undefined, [...(await sessionFileEntries(file))]);
  return runsInHistory(manager.getBranch());
}
