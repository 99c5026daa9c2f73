import { unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type FileEntry, type SessionEntry, SessionManager } from '@earendil-works/pi-coding-agent';
import { ioError, syncDirectory } from '@repa/durable-fs';
import { type HistoryItem, RepaError, type SessionInfo } from '@repa/protocol';
import {
  assertRealFolders,
  createSessionFile,
  listSessionFiles,
  type SessionFileState,
  sessionFileState,
  sessionIdOfFileName,
} from './session-files.js';

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

const TITLE_CHARS = 60;

/** A title from a request: its words on one line, cut at a word to at most 60 characters. */
function titleOfRequest(text: string): string | undefined {
  const words = text.replace(/\s+/g, ' ').trim();
  if (words.length <= TITLE_CHARS) return words || undefined;
  const cut = words.slice(0, TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * What Pi's own session listing shows of a sound session: its name (the last `session_info`, else
 * its first request, shortened) and its last activity.
 */
function summaryOf(entries: readonly FileEntry[]): { name?: string; lastActivity?: number } {
  let name: string | undefined;
  let firstRequest: string | undefined;
  let lastActivity: number | undefined;
  for (const entry of entries) {
    if (entry.type === 'session_info') name = entry.name?.trim() || undefined;
    if (entry.type !== 'message') continue;
    const { role, timestamp, content } = entry.message as {
      role: string;
      timestamp?: unknown;
      content?: unknown;
    };
    if (role === 'user' && firstRequest === undefined) firstRequest = textOf(content);
    if (role !== 'user' && role !== 'assistant') continue;
    const time = typeof timestamp === 'number' ? timestamp : Date.parse(entry.timestamp);
    if (!Number.isNaN(time)) lastActivity = Math.max(lastActivity ?? 0, time);
  }
  name ??= titleOfRequest(firstRequest ?? '');
  return { ...(name ? { name } : {}), ...(lastActivity ? { lastActivity } : {}) };
}

/**
 * The sessions of a space, newest first, as Pi's own listing names and dates them, built from the
 * cached checks of each file (Pi's listing would stream every file, and wait forever on a FIFO). A
 * damaged session is listed too, with `damaged` saying why.
 */
export async function listSpaceSessions(space: string): Promise<SessionInfo[]> {
  const dir = sessionDirectoryOf(space);
  await assertRealFolders(space, dir);
  const sessions: SessionInfo[] = [];
  for (const file of await listSessionFiles(dir)) {
    const state = await stateOf(file);
    if (!state) continue;
    const { name, lastActivity } = summaryOf(state.entries ?? []);
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
 * @internal
 */
export async function findSessionState(
  space: string,
  sessionId: string,
): Promise<{ file: string; state: SessionFileState }> {
  await assertRealFolders(space, sessionDirectoryOf(space));
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

/** A tool call as `[name target]`: the path or search pattern it works on, when it names one. */
function toolCallText(name: string | undefined, args: unknown): string {
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const target = [record.pattern, record.path].filter((value) => typeof value === 'string');
  const shown = target.map((value) => {
    const text = String(value).replace(/\s+/g, ' ');
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  });
  return `[${[name, ...shown].join(' ')}]`;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: string; name?: string; arguments?: unknown }) =>
      block.type === 'text'
        ? (block.text ?? '')
        : block.type === 'toolCall'
          ? toolCallText(block.name, block.arguments)
          : '',
    )
    .filter(Boolean)
    .join('\n');
}

function historyItemOf(entry: SessionEntry): HistoryItem | undefined {
  const base = { entryId: entry.id, timestamp: entry.timestamp };
  switch (entry.type) {
    case 'message': {
      const message = entry.message as {
        role: string;
        content?: unknown;
        toolName?: string;
        isError?: boolean;
      };
      // Pi's system entries (prompt and tool configuration) stay raw (spec R27).
      if (message.role === 'user') return { ...base, kind: 'user', text: textOf(message.content) };
      if (message.role === 'assistant')
        return { ...base, kind: 'assistant', text: textOf(message.content) };
      if (message.role === 'toolResult') {
        return {
          ...base,
          kind: 'tool-result',
          text: textOf(message.content),
          ...(message.toolName ? { toolName: message.toolName } : {}),
          isError: message.isError === true,
        };
      }
      return undefined;
    }
    case 'custom_message':
      if (entry.customType === 'repa.learning-context') {
        return { ...base, kind: 'context-snapshot', text: textOf(entry.content) };
      }
      if (entry.customType === 'repa.file-changes') {
        return { ...base, kind: 'file-change-notice', text: textOf(entry.content) };
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

/**
 * The public history of a session's current branch (spec R27): the real exchange, tool results,
 * context snapshots, file-change notices and summaries; never Pi's system entries. Never writes
 * the session file; a damaged one is `session_damaged`.
 */
export async function readSessionHistory(space: string, sessionId: string): Promise<HistoryItem[]> {
  const { state } = await findSessionState(space, sessionId);
  if (state.damage) throw state.damage;
  // From the checked entries in memory: opening the file with Pi would repair a torn last line,
  // and a read never writes.
  const manager = SessionManager.inMemory(space, undefined, [...(state.entries ?? [])]);
  return manager.getBranch().flatMap((entry) => historyItemOf(entry) ?? []);
}
