import { randomUUID } from 'node:crypto';
import { type RepaClient, RepaError, type RunInfo, type SessionInfo } from '@repa/protocol';
import { editsModeOf } from '../approval-lines.js';
import type { CliContext } from '../cli-context.js';
import { describeCompaction } from '../commands/session-commands.js';
import { relativeTime, uniquePrefixes } from '../format-table.js';
import { historyText } from '../history-lines.js';
import { resolveSession } from '../resolve-id.js';
import type { RunPrinter } from '../run-printer.js';
import { checkAnswer } from './chat-check.js';
import { modelCommand, type PickModel } from './chat-model.js';
import { type ChatTemplate, templateHelpLines } from './chat-templates.js';
import { toggleTutor, tutorOn } from './chat-tutor.js';
import { undoLastRun } from './chat-undo.js';

/** The slash commands of the chat prompt, with what each does. */
export const SLASH_COMMANDS: readonly (readonly [string, string])[] = [
  ['/help', 'show this list'],
  ['/new', 'start a new session'],
  ['/sessions', 'list the recent sessions of the space'],
  ['/resume', 'N|ID: switch to session N of /sessions (or by id)'],
  ['/history', 'show the earlier turns of this session, a page at a time'],
  ['/context', 'show the learning context of the space'],
  [
    '/model',
    '[ID]: switch this session to model ID; alone: pick one of the models (arrows, Enter; Esc keeps it)',
  ],
  ['/tutor', 'switch tutor mode for this session: hints and questions back, read-only tools'],
  [
    '/check',
    'ANSWER: check your answer against the passage the last tutor reply cites (graded, recorded)',
  ],
  ['/compact', "[TEXT]: summarise the session's older history now (TEXT: what to keep)"],
  ['/steer', 'TEXT: steer the running reply with TEXT (it reads it before its next step)'],
  ['/follow-up', 'TEXT: hand TEXT to the running reply once it would stop'],
  [
    '/undo',
    "show what undoing the last run restores (its files and the conversation); '/undo yes' does it",
  ],
  ['/quit', 'leave (also /exit, or Ctrl-D on an empty line)'],
];

/** The chat help line shown when it starts. */
export const CHAT_HELP = `Commands at the prompt: ${SLASH_COMMANDS.map(([name]) => name).join(' ')} (/help explains them).
Ctrl-C cancels a running reply; at the prompt it clears a half-typed line, else leaves.`;

const HOW_MANY_RECENT = 10;
/** History items shown when a session is resumed, and per `/history` page. */
const PAGE = 8;

/** One chat: its client, printer, space and current session (`/new` and `/resume` change it). */
export interface Chat {
  context: CliContext;
  client: RepaClient;
  printer: RunPrinter;
  space: string;
  sessionId: string;
  /** How many of the session's last history items were shown (`/history` pages back from it). */
  shown: number;
  /** The prompt templates of Pi packages: `/name` lines go to the model (spec R75). */
  templates?: readonly ChatTemplate[];
  /** The request ids this chat sent: its own runs, told apart from those of other clients. */
  own?: Set<string>;
  /** A `/check` first try graded Again or Hard, which the next `/check` follows. */
  pendingCheck?: { tutor: string; after: string } | undefined;
}

/** The space's most recently changed sessions (at most 10), most recent first. */
export async function recentSessions(chat: Pick<Chat, 'client' | 'space'>) {
  // The daemon lists the most recently changed first.
  const { sessions } = await chat.client.request('session.list', { space: chat.space });
  const prefixes = uniquePrefixes(sessions.map((session) => session.sessionId));
  return { recent: sessions.slice(0, HOW_MANY_RECENT), prefixes };
}

/** Numbered lines of sessions: short id, last change, title; the current one marked. */
export function sessionLines(
  { recent, prefixes }: Awaited<ReturnType<typeof recentSessions>>,
  current?: string,
): string[] {
  return recent.map(
    (session) =>
      `${String(recent.indexOf(session) + 1).padStart(2)}. ${prefixes.get(session.sessionId) ?? session.sessionId}  ${relativeTime(session.updatedAt ?? session.createdAt)}  ${session.title ?? '(untitled)'}${session.sessionId === current ? '  (current)' : ''}`,
  );
}

/**
 * The last turns of the chat's session before those shown so far (`PAGE` items; tool results
 * folded), or undefined when there are none left; counts them as shown.
 */
export async function earlierTurns(chat: Chat): Promise<string | undefined> {
  const { items } = await chat.client.request('session.history', {
    space: chat.space,
    sessionId: chat.sessionId,
  });
  const end = items.length - chat.shown;
  if (end <= 0) return undefined;
  const start = Math.max(0, end - PAGE);
  chat.shown = items.length - start;
  const more = start > 0 ? `\n(${start} earlier item${start === 1 ? '' : 's'}: /history)` : '';
  return `${historyText(items.slice(start, end), { relative: true }).trimEnd()}${more}`;
}

/** Makes `session` the chat's session and shows its last turns. */
async function switchTo(chat: Chat, session: SessionInfo, say: (text: string) => void) {
  chat.sessionId = session.sessionId;
  chat.shown = 0;
  say(`[repa] session ${session.sessionId}${session.title ? ` "${session.title}"` : ''}`);
  const turns = await earlierTurns(chat);
  say(turns ?? '(no history yet)');
}

/** The session `typed` names (the daemon's rule), or undefined when none or several do. */
async function sessionNamed(chat: Chat, typed: string): Promise<SessionInfo | undefined> {
  try {
    return await resolveSession(chat.client, chat.space, typed);
  } catch (error) {
    if (RepaError.isInstance(error) && ['not_found', 'invalid_request'].includes(error.code)) {
      return undefined;
    }
    throw error;
  }
}

/** `/resume N|ID`: the session it names, or says how to name one. */
async function resume(chat: Chat, arg: string, say: (text: string) => void) {
  const listed = await recentSessions(chat);
  const byNumber = /^\d+$/.test(arg) ? listed.recent[Number(arg) - 1] : undefined;
  const picked = byNumber ?? (arg === '' ? undefined : await sessionNamed(chat, arg));
  if (!picked) {
    const lines = sessionLines(listed, chat.sessionId);
    say(
      `${arg === '' ? '' : `No single session is ${arg}. `}Pick one: /resume N\n${lines.join('\n') || 'No sessions.'}`,
    );
    return;
  }
  await switchTo(chat, picked, say);
}

/**
 * What the status line under the chat's editor shows, short enough for one row: the model and
 * thinking level the next reply uses, what it may change without asking (`tools.edits`), `tutor`
 * in tutor mode, Pi's last estimate of how full the context is (an estimate,
 * spec R47), and the session.
 */
export async function chatStatus(chat: Chat): Promise<string> {
  const where = { space: chat.space, sessionId: chat.sessionId };
  const [{ choice }, { runs }, { prefixes }, { items }] = await Promise.all([
    chat.client.request('models.next', where),
    chat.client.request('run.list', { ...where, limit: 10 }),
    recentSessions(chat),
    chat.client.request('settings.get', where),
  ]);
  const edits = editsModeOf(items);
  const tutor = tutorOn(items) ? ' · tutor' : '';
  const usage = runs.find((run) => run.usage?.contextTokensEstimate !== undefined)?.usage;
  const estimate = usage?.contextTokensEstimate;
  const window = usage?.contextWindow;
  const context =
    estimate === undefined
      ? 'context: no estimate yet'
      : window
        ? `context ~${Math.round((100 * estimate) / window)}% of ${Math.round(window / 1000)}k (estimate)`
        : `context ~${estimate} tokens (estimate)`;
  const session = prefixes.get(chat.sessionId) ?? chat.sessionId.slice(0, 8);
  return `${choice.model} · thinking ${choice.thinkingLevel} · edits ${edits}${tutor} · ${context} · session ${session}`;
}

/**
 * `/steer TEXT` or `/follow-up TEXT`: sends TEXT into the session's running reply; resolves with
 * its own run (undefined, having said why, when nothing was sent).
 */
export async function deliverInto(
  chat: Chat,
  name: '/steer' | '/follow-up',
  arg: string,
  say: (text: string) => void,
  quiet = false,
): Promise<RunInfo | undefined> {
  if (arg === '') {
    say(`${name} needs the text to send, e.g. ${name} keep it shorter; nothing was sent.`);
    return undefined;
  }
  try {
    const { run } = await chat.client.request('run.submit', {
      space: chat.space,
      sessionId: chat.sessionId,
      requestId: randomUUID(),
      input: { type: 'text', text: arg },
      delivery: name === '/steer' ? 'steer' : 'followUp',
    });
    if (!quiet) say(`[${name.slice(1)}] into run ${run.targetRunId ?? run.runId}`);
    return run;
  } catch (error) {
    if (!(RepaError.isInstance(error) && error.code === 'no_active_run')) throw error;
    say(
      `No reply is running in this session, so ${name} has nothing to go into; nothing was sent. (no_active_run)\nFix: Send the text as a request of its own.`,
    );
    return undefined;
  }
}

/**
 * Runs a slash command; resolves with false for `/quit` (or `/exit`). Unknown commands are
 * refused, never sent to the model. `pick` is the terminal's model picker (`/model` alone).
 */
export async function slashCommand(
  chat: Chat,
  line: string,
  say: (text: string) => void,
  pick?: PickModel,
) {
  const [name = ''] = line.split(/\s+/, 1);
  const arg = line.slice(name.length).trim();
  switch (name) {
    case '/exit':
    case '/quit':
      return false;
    case '/help':
      say(SLASH_COMMANDS.map(([command, what]) => `  ${command.padEnd(10)} ${what}`).join('\n'));
      say(
        'Ctrl-C cancels a running reply; at the prompt it clears a half-typed line, else leaves.',
      );
      for (const text of templateHelpLines(chat.templates ?? [])) say(text);
      break;
    case '/new': {
      const { session } = await chat.client.request('session.create', { space: chat.space });
      chat.sessionId = session.sessionId;
      chat.shown = 0;
      say(`[repa] session ${session.sessionId} (new)`);
      break;
    }
    case '/sessions': {
      const lines = sessionLines(await recentSessions(chat), chat.sessionId);
      say(lines.length === 0 ? 'No sessions.' : lines.join('\n'));
      say('Switch to one with /resume N.');
      break;
    }
    case '/resume':
      await resume(chat, arg, say);
      break;
    case '/history':
      say((await earlierTurns(chat)) ?? 'No earlier turns in this session.');
      break;
    case '/context': {
      const { context } = await chat.client.request('context.get', {
        space: chat.space,
        sessionId: chat.sessionId,
      });
      say(
        context
          ? `[context] revision ${context.revision}, ${context.body.length} characters, from ${context.sources.join(', ') || 'no sources'} (repa context show for the body)`
          : '[context] none (repa context build SOURCE… writes one)',
      );
      break;
    }
    case '/model':
      await modelCommand(chat, arg, say, pick);
      break;
    case '/compact': {
      say('[repa] compacting the session…');
      const result = await chat.client.request('session.compact', {
        space: chat.space,
        sessionId: chat.sessionId,
        ...(arg ? { instructions: arg } : {}),
      });
      say(describeCompaction(chat.sessionId, result).trimEnd());
      break;
    }
    case '/steer':
    case '/follow-up':
      await deliverInto(chat, name, arg, say);
      break;
    case '/tutor':
      await toggleTutor(chat, say);
      break;
    case '/check':
      await checkAnswer(chat, arg, say);
      break;
    case '/undo':
      await undoLastRun({ ...chat, out: chat.context.stdout }, line, say);
      break;
    default:
      say(`Unknown command ${name}; nothing was sent. /help lists the commands.`);
  }
  return true;
}

/** How to come back to the chat's session, printed when it is left. */
export function comeBack(chat: Chat): string {
  return `[repa] to come back: repa chat (the most recent session) or repa chat --session ${chat.sessionId}`;
}
