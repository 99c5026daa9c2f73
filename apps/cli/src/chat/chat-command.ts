import { randomUUID } from 'node:crypto';
import { createInterface, type Interface } from 'node:readline';
import { type RepaClient, RepaError, type RunDelivery, type RunInfo } from '@repa/protocol';
import { editsLine, editsMode } from '../approval-lines.js';
import { type Approver, offTerminalApprover } from '../approvals.js';
import { type CliContext, claimSpace, spaceOf } from '../cli-context.js';
import { defineCommand, type OptionValues, SPACE_OPTIONS } from '../command.js';
import {
  announceModel,
  announceSession,
  CONTINUE_OPTION,
  NEW_OPTION,
  restrictedOf,
} from '../commands/runs/index.js';
import { startDaemon } from '../daemon-control.js';
import { statusLine } from '../describe-model.js';
import { type FollowedRun, followRun } from '../follow-run.js';
import { sessionOf } from '../resolve-id.js';
import { RunPrinter } from '../run-printer.js';
import { usageError } from '../usage-error.js';
import { writeError } from '../write-error.js';
import {
  CHAT_HELP,
  type Chat,
  chatStatus,
  comeBack,
  deliverInto,
  earlierTurns,
  recentSessions,
  SLASH_COMMANDS,
  sessionLines,
  slashCommand,
} from './chat-slash.js';
import { chatTemplates, isTemplateLine } from './chat-templates.js';
import { followOther, watchSession } from './chat-watch.js';

/** The options of `repa chat`. */
const CHAT_OPTIONS = {
  ...SPACE_OPTIONS,
  ...CONTINUE_OPTION,
  ...NEW_OPTION,
  resume: { type: 'boolean' },
} as const;

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
  approver?: Approver,
): FollowedRun {
  const params = {
    space: chat.space,
    sessionId: chat.sessionId,
    requestId: randomUUID(),
    input: { type: 'text' as const, text },
    ...(delivery ? { delivery } : {}),
  };
  chat.own?.add(params.requestId);
  const submit = async () => {
    const result = await chat.client.request('run.submit', params);
    accepted?.(result.run);
    return result;
  };
  const followed = followRun(
    chat.client,
    chat.printer,
    () =>
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
    // The chat sent it: off a terminal (a pipe) nobody can answer, so each save is refused.
    approver ?? offTerminalApprover,
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

/** `--resume`: lets the user pick one of the recent sessions on a terminal. */
async function pickSession(context: CliContext, client: RepaClient, space: string) {
  const listed = await recentSessions({ client, space });
  const sessions = listed.recent;
  if (sessions.length === 0) return undefined;
  context.stdout.write(`Recent sessions of ${space}:\n${sessionLines(listed).join('\n')}\n`);
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

/**
 * Opens the chat's space and session by the rule `repa run` follows too: --session, else --resume
 * (picked), else with --new a new session, else the space's most recent session (a new one when
 * it has none).
 */
async function openChat(
  context: CliContext,
  values: OptionValues<typeof CHAT_OPTIONS>,
  printer: RunPrinter,
): Promise<{ chat: Chat; opened: { sessionId: string; created: boolean } }> {
  const exclusive = (['session', 'continue', 'resume', 'new'] as const).filter(
    (name) => values[name] !== undefined,
  );
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
  const space = spaceOf(context, values.space);
  const client = await context.client();
  // As in repa run: a named session must exist already; only a new one makes the folder a space.
  const making = values.session === undefined;
  await claimSpace(context, client, space, values.space !== undefined, making);
  let opened: { sessionId: string; created: boolean };
  if (values.resume) {
    const picked = await pickSession(context, client, space);
    opened = await sessionOf(client, space, picked, false);
  } else opened = await sessionOf(client, space, values.session, values.new !== true);
  const start = { space, ...opened, restricted: await restrictedOf(client, space) };
  announceSession(context, printer, start);
  // The model the next run uses now (each run's own is decided when it is accepted, spec R71).
  const { choice } = await client.request('models.next', { space, sessionId: opened.sessionId });
  announceModel(context, printer, start, { ...choice, modelSource: choice.source });
  printer.note(editsLine(await editsMode(client, { space, sessionId: opened.sessionId })));
  // The prompt templates of the Pi packages the space's sessions load: `/name` lines go to Pi.
  const templates = await chatTemplates(client, space);
  return {
    chat: {
      context,
      client,
      printer,
      space,
      sessionId: opened.sessionId,
      shown: 0,
      templates,
      own: new Set(),
    },
    opened,
  };
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
    if (!context.json && terminal) printer.note(comeBack(chat));
  }
  return 0;
}

/** `repa chat`. */
export const chatCommand = defineCommand({
  words: ['chat'],
  summary: 'talk with the agent in a space (interactive)',
  usage: 'chat [--space DIR] [--session ID | --new | --resume]',
  help: `Talks with the agent in a session of the space: the one --session names, else the space's most
recent session (a new one when it has none), or a new one with --new, or one picked with --resume;
repa run uses the same rule. A session it continues shows its last turns first (/history pages back
further). Each reply streams as it arrives, with the tool calls and every save with its receipt.
On a terminal a working indicator with the elapsed time shows until the reply comes, and a status
line below the editor shows the model, its thinking level, Pi's estimate of how full the context is
and the session.
On a terminal the input is an editor: Enter sends, Shift-Enter or Alt-Enter starts a new line, Tab
completes a slash command; it stays live while a reply streams: a request sent then goes at once into
the session's queue (shown as [queued] with its position) and streams when its turn comes, /steer TEXT
steers the running reply and /follow-up TEXT hands it more once it would stop. A run another client
starts in the session (repa web, another terminal) streams there too, in its turn, shown as
[another client]. Over a pipe (or with
--json, or TERM=dumb) one request is read per line and waits for the reply before it, so no reply is
running when /steer is read there (it says so, unless a run of another client is active).
${CHAT_HELP}

Options:
  --space DIR      the space folder (default: the space you are in)
  --session ID     continue this session, by id or its first characters
  --new            start a new session (default: continue the most recent one)
  -c, --continue   continue the most recent session of the space (the default)
  --resume         pick one of the recent sessions (on a terminal)

With --json, no prompt is shown and every run prints the same JSON lines as repa run --json.`,
  options: CHAT_OPTIONS,
  positionals: [0, 0],
  async run(context, _args, values) {
    const printer = new RunPrinter({ out: context.stdout, json: context.json, showErrors: true });
    const { chat, opened } = await openChat(context, values, printer);
    const { templates = [] } = chat;
    printer.note(CHAT_HELP);
    const terminal = Boolean(context.stdin.isTTY && context.stdout.isTTY);
    // On a terminal a continued session shows its last turns first.
    const earlier =
      terminal && !context.json && !opened.created ? await earlierTurns(chat) : undefined;
    if (!terminal || context.json || process.env.TERM === 'dumb') {
      if (earlier) printer.note(earlier);
      return lineChat(chat, terminal);
    }
    // Pi's terminal UI is loaded only here, so other commands start without it.
    const { terminalChat } = await import('./chat-terminal.js');
    const code = await terminalChat({
      send: (text, printer, delivery, accepted, approver) =>
        sendRequest({ ...chat, printer }, text, delivery, accepted, approver),
      command: (line, say, pick) => slashCommand(chat, line, say, pick),
      deliver: (name, text, say) => deliverInto(chat, name, text, say, true),
      commands: [...SLASH_COMMANDS, ...templates],
      isTemplate: (line) => isTemplateLine(templates, line),
      space: chat.space,
      ...(earlier ? { opening: earlier } : {}),
      status: () => chatStatus(chat),
      watch: (onRun) => watchSession(chat, onRun),
      follow: (runId, printer) => followOther({ ...chat, printer }, runId),
    });
    context.stdout.write(`${comeBack(chat)}\n`);
    return code;
  },
});
