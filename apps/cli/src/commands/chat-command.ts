import { randomUUID } from 'node:crypto';
import { createInterface, type Interface } from 'node:readline';
import { type RepaClient, RepaError, type RunDelivery, type RunInfo } from '@repa/protocol';
import {
  type CliContext,
  confirmSpace,
  latestSession,
  sessionOf,
  spaceOf,
} from '../cli-context.js';
import { type Command, type OptionValues, SPACE_OPTIONS } from '../command.js';
import { startDaemon } from '../daemon-control.js';
import { describeRunModel, statusLine } from '../describe-model.js';
import { type FollowedRun, followRun } from '../follow-run.js';
import { RunPrinter } from '../run-printer.js';
import { usageError } from '../usage-error.js';
import { writeError } from '../write-error.js';
import {
  type ChatTemplate,
  chatTemplates,
  isTemplateLine,
  templateHelpLines,
} from './chat-templates.js';
import { undoLastRun } from './chat-undo.js';
import {
  announceModel,
  announceSession,
  CONTINUE_OPTION,
  restrictedOf,
} from './runs/run-command.js';

const str = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** The slash commands of the chat prompt, with what each does. */
const SLASH_COMMANDS: readonly (readonly [string, string])[] = [
  ['/help', 'show this list'],
  ['/new', 'start a new session'],
  ['/sessions', 'list the recent sessions of the space'],
  ['/context', 'show the learning context of the space'],
  ['/model', 'show the model the next reply uses, and why'],
  ['/steer', 'TEXT: steer the running reply with TEXT (it reads it before its next step)'],
  ['/follow-up', 'TEXT: hand TEXT to the running reply once it would stop'],
  [
    '/undo',
    "show what undoing the last run restores (its files and the conversation); '/undo yes' does it",
  ],
  ['/exit', 'leave (also Ctrl-D on an empty line)'],
];

const CHAT_HELP = `Commands at the prompt: ${SLASH_COMMANDS.map(([name]) => name).join(' ')} (/help explains them).
Ctrl-C cancels a running reply; at the prompt it clears a half-typed line, else leaves.`;

const HOW_MANY_RECENT = 10;

/** One chat: its client, printer, space and current session (`/new` changes it). */
interface Chat {
  context: CliContext;
  client: RepaClient;
  printer: RunPrinter;
  space: string;
  sessionId: string;
  /** The prompt templates of Pi packages: `/name` lines go to the model (spec R75). */
  templates?: readonly ChatTemplate[];
}

/**
 * Sends one request to the chat's session and follows it; `delivery` 'queue' puts it in the
 * session's durable queue behind the running reply, and `accepted` sees the run as accepted.
 * The one place a request leaves the chat.
 */
function sendRequest(
  chat: Chat,
  text: string,
  delivery?: RunDelivery,
  accepted?: (run: RunInfo) => void,
): FollowedRun {
  const params = {
    space: chat.space,
    sessionId: chat.sessionId,
    requestId: randomUUID(),
    input: { type: 'text' as const, text },
    ...(delivery ? { delivery } : {}),
  };
  const submit = async () => {
    const result = await chat.client.request('run.submit', params);
    accepted?.(result.run);
    return result;
  };
  const followed = followRun(chat.client, chat.printer, () =>
    submit().catch(async (error: unknown) => {
      // The daemon went away while the chat waited (stopped, or idle for daemon.idleMinutes):
      // start it again and send once more (run.submit is idempotent by requestId).
      if (!(RepaError.isInstance(error) && error.code === 'daemon_unavailable')) throw error;
      const { status } = await startDaemon({
        appDirectory: chat.context.appDirectory,
        agentDir: chat.context.agentDir,
      });
      chat.printer.note(
        `[repa] the daemon had stopped; started it again (pid ${status.pid ?? '?'})`,
      );
      return submit();
    }),
  );
  // After each reply: the model it used and Pi's estimate of the context, as a status line.
  const done = followed.done.then((run) => {
    if (!run.targetRunId) chat.printer.note(statusLine(run));
    return run;
  });
  return {
    done,
    cancel: () => followed.cancel(),
    get cancelling() {
      return followed.cancelling;
    },
  };
}

/** The space's most recently changed sessions (at most 10), most recent first. */
async function recentSessions(chat: Pick<Chat, 'client' | 'space'>) {
  const { sessions } = await chat.client.request('session.list', { space: chat.space });
  return [...sessions]
    .sort((a, b) => (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt))
    .slice(0, HOW_MANY_RECENT);
}

/** Numbered lines of sessions: id, last change (UTC), title; the current one marked. */
function sessionLines(sessions: Awaited<ReturnType<typeof recentSessions>>, current?: string) {
  return sessions.map(
    (session, index) =>
      `${String(index + 1).padStart(2)}. ${session.sessionId}  ${(session.updatedAt ?? session.createdAt).slice(0, 16).replace('T', ' ')}  ${session.title ?? '(untitled)'}${session.sessionId === current ? '  (current)' : ''}`,
  );
}

/**
 * Runs a slash command; resolves with false for `/exit`. Unknown commands are refused, never sent
 * to the model.
 */
async function slashCommand(chat: Chat, line: string, say: (text: string) => void) {
  const [name = ''] = line.split(/\s+/, 1);
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
      say(`[repa] session ${session.sessionId} (new)`);
      break;
    }
    case '/sessions': {
      const lines = sessionLines(await recentSessions(chat), chat.sessionId);
      say(lines.length === 0 ? 'No sessions.' : lines.join('\n'));
      say('Continue one with: repa chat --session ID (or repa chat --resume).');
      break;
    }
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
    case '/model': {
      const { choice } = await chat.client.request('models.next', {
        space: chat.space,
        sessionId: chat.sessionId,
      });
      say(`[repa] model: ${describeRunModel(choice)} (repa models lists the others)`);
      break;
    }
    case '/steer':
    case '/follow-up': {
      const text = line.slice(name.length).trim();
      if (text === '') {
        say(`${name} needs the text to send, e.g. ${name} keep it shorter; nothing was sent.`);
        break;
      }
      try {
        const { run } = await chat.client.request('run.submit', {
          space: chat.space,
          sessionId: chat.sessionId,
          requestId: randomUUID(),
          input: { type: 'text', text },
          delivery: name === '/steer' ? 'steer' : 'followUp',
        });
        say(`[${name.slice(1)}] into run ${run.targetRunId ?? run.runId}`);
      } catch (error) {
        if (!(RepaError.isInstance(error) && error.code === 'no_active_run')) throw error;
        say(
          `No reply is running in this session, so ${name} has nothing to go into; nothing was sent. (no_active_run)\nFix: Send the text as a request of its own.`,
        );
      }
      break;
    }
    case '/undo':
      await undoLastRun({ ...chat, out: chat.context.stdout }, line, say);
      break;
    default:
      say(`Unknown command ${name}; nothing was sent. /help lists the commands.`);
  }
  return true;
}

/** `--resume`: lets the user pick one of the recent sessions on a terminal. */
async function pickSession(context: CliContext, client: RepaClient, space: string) {
  const sessions = await recentSessions({ client, space });
  if (sessions.length === 0) return undefined;
  context.stdout.write(`Recent sessions of ${space}:\n${sessionLines(sessions).join('\n')}\n`);
  const rl = createInterface({ input: context.stdin, output: context.stdout, terminal: true });
  try {
    let gone: () => void = () => {};
    const left = new Promise<undefined>((resolve) => {
      gone = () => resolve(undefined);
    });
    rl.once('close', gone);
    rl.once('SIGINT', gone);
    for (;;) {
      const answer = await Promise.race([
        new Promise<string>((resolve) => {
          rl.question(`Session [1-${sessions.length}, empty for a new one]: `, resolve);
        }),
        left,
      ]);
      if (answer === undefined) throw new RepaError('cancelled', 'No session was picked.');
      if (answer.trim() === '') return undefined;
      const picked = sessions[Number(answer) - 1];
      if (picked && /^\d+$/.test(answer.trim())) return picked.sessionId;
      context.stdout.write(`Type a number from 1 to ${sessions.length}.\n`);
    }
  } finally {
    rl.close();
  }
}

/** Opens the chat's space and session: --session, -c, --resume, else a new session. */
async function openChat(context: CliContext, values: OptionValues, printer: RunPrinter) {
  const exclusive = ['session', 'continue', 'resume'].filter((name) => values[name] !== undefined);
  if (exclusive.length > 1) {
    throw usageError(
      `${exclusive.map((name) => `--${name}`).join(' and ')} exclude each other.`,
      'Pass one of them.',
    );
  }
  if (values.resume && !(context.stdin.isTTY && context.stdout.isTTY)) {
    throw usageError(
      '--resume needs a terminal to pick from.',
      'Pass the session: repa chat --session ID (see repa sessions list), or -c for the most recent.',
    );
  }
  const space = spaceOf(context, str(values.space));
  // As in repa run: a named session must exist already; only a new one makes the folder a space.
  if (str(values.session) === undefined) {
    await confirmSpace(context, space, str(values.space) !== undefined);
  }
  const client = await context.client();
  let opened: { sessionId: string; created: boolean };
  if (values.resume) {
    const picked = await pickSession(context, client, space);
    opened = await sessionOf(client, space, picked, false);
  } else if (values.continue) {
    const latest = await latestSession(client, space);
    opened = await sessionOf(client, space, latest?.sessionId, false);
  } else opened = await sessionOf(client, space, str(values.session), false);
  const start = { space, ...opened, restricted: await restrictedOf(client, space) };
  announceSession(context, printer, start);
  // The model the next run uses now (each run's own is decided when it is accepted, spec R71).
  const { choice } = await client.request('models.next', { space, sessionId: opened.sessionId });
  announceModel(context, printer, start, { ...choice, modelSource: choice.source });
  return { context, client, printer, space, sessionId: opened.sessionId };
}

/** Line-based chat: a pipe, or a terminal used through readline (`--json` or `TERM=dumb`). */
async function lineChat(chat: Chat, terminal: boolean): Promise<number> {
  const { context, printer } = chat;
  const rl: Interface = createInterface({
    input: context.stdin,
    ...(context.json ? {} : { output: context.stdout }),
    terminal,
    prompt: 'you> ',
  });
  let active: FollowedRun | undefined;
  const interrupt = () => {
    if (active) {
      if (active.cancelling) process.exit(130);
      active.cancel();
      return;
    }
    rl.close();
  };
  rl.on('SIGINT', interrupt); // A terminal's Ctrl-C arrives here (readline owns raw mode).
  process.on('SIGINT', interrupt); // A signal sent to the process (e.g. over a pipe).
  try {
    rl.prompt();
    for await (const line of rl) {
      // Over a pipe nothing echoes the request: show it after the prompt, as a terminal would.
      if (!terminal && !context.json) context.stdout.write(`${line}\n`);
      const text = line.trim();
      if (text.startsWith('/') && !isTemplateLine(chat.templates ?? [], text)) {
        if (!(await slashCommand(chat, text, (note) => printer.note(note)))) break;
      } else if (text !== '') {
        active = sendRequest(chat, text);
        try {
          await active.done;
        } catch (error) {
          if (RepaError.isInstance(error) && error.code === 'daemon_unavailable') throw error;
          writeError(context.stderr, error);
        } finally {
          active = undefined;
        }
      }
      rl.prompt();
    }
  } finally {
    process.off('SIGINT', interrupt);
    rl.close();
    if (!context.json && !terminal) context.stdout.write('\n');
  }
  return 0;
}

/** `repa chat`. */
export const chatCommand: Command = {
  words: ['chat'],
  summary: 'talk with the agent in a space (interactive)',
  usage: 'chat [--space DIR] [--session ID | -c | --resume]',
  help: `Talks with the agent in a new session of the space, or the one chosen by --session, -c or
--resume. Each reply streams as it arrives, with the tool calls and every save with its receipt.
On a terminal the input is an editor: Enter sends, Shift-Enter or Alt-Enter starts a new line, Tab
completes a slash command; it stays live while a reply streams: a request sent then goes at once into
the session's queue (shown as [queued] with its position) and streams when its turn comes, /steer TEXT
steers the running reply and /follow-up TEXT hands it more once it would stop. Over a pipe (or with
--json, or TERM=dumb) one request is read per line and waits for the reply before it, so no reply is
running when /steer is read there (it says so, unless a run of another client is active).
${CHAT_HELP}

Options:
  --space DIR      the space folder (default: the current directory)
  --session ID     continue this session, by id or its first characters (default: a new session)
  -c, --continue   continue the most recent session of the space
  --resume         pick one of the recent sessions (on a terminal)

With --json, no prompt is shown and every run prints the same JSON lines as repa run --json.`,
  options: { ...SPACE_OPTIONS, ...CONTINUE_OPTION, resume: { type: 'boolean' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const printer = new RunPrinter({ out: context.stdout, json: context.json, showErrors: true });
    const opened = await openChat(context, values, printer);
    const templates = await chatTemplates(opened.client, opened.space);
    const chat: Chat = { ...opened, templates };
    printer.note(CHAT_HELP);
    const terminal = Boolean(context.stdin.isTTY && context.stdout.isTTY);
    if (!terminal || context.json || process.env.TERM === 'dumb') return lineChat(chat, terminal);
    // Pi's terminal UI is loaded only here, so other commands start without it.
    const { terminalChat } = await import('./chat-terminal.js');
    return terminalChat({
      send: (text, printer, delivery, accepted) =>
        sendRequest({ ...chat, printer }, text, delivery, accepted),
      command: (line, say) => slashCommand(chat, line, say),
      commands: [...SLASH_COMMANDS, ...templates],
      isTemplate: (line) => isTemplateLine(templates, line),
      space: chat.space,
    });
  },
};
