import { join } from 'node:path';
import { type SessionEntry, SessionManager } from '@earendil-works/pi-coding-agent';
import { type HistoryItem, RepaError, type SessionInfo } from '@repa/protocol';
import { checkSessionFile, createSessionFile } from './session-files.js';

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

/** The sessions of a space, newest first, through Pi's own session listing. */
export async function listSpaceSessions(space: string): Promise<SessionInfo[]> {
  const sessions = await SessionManager.listAll(sessionDirectoryOf(space));
  return sessions.map((session) => ({
    sessionId: session.id,
    space,
    createdAt: session.created.toISOString(),
    updatedAt: session.modified.toISOString(),
    ...(session.name ? { title: session.name } : {}),
  }));
}

/** The session file of a session id in a space, or `not_found`. */
export async function findSessionFile(space: string, sessionId: string): Promise<string> {
  const sessions = await SessionManager.listAll(sessionDirectoryOf(space));
  const found = sessions.find((session) => session.id === sessionId);
  if (!found) {
    throw new RepaError('not_found', `Space ${space} has no session ${sessionId}.`, {
      fix: 'List the sessions of the space (session.list) or create one (session.create).',
    });
  }
  return found.path;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: string; name?: string }) =>
      block.type === 'text'
        ? (block.text ?? '')
        : block.type === 'toolCall'
          ? `[${block.name}]`
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
 * context snapshots, file-change notices and summaries; never Pi's system entries.
 */
export async function readSessionHistory(space: string, sessionId: string): Promise<HistoryItem[]> {
  const file = await findSessionFile(space, sessionId);
  checkSessionFile(file);
  const manager = SessionManager.open(file, sessionDirectoryOf(space), space);
  return manager.getBranch().flatMap((entry) => historyItemOf(entry) ?? []);
}
