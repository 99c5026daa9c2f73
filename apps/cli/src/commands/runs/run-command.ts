import { randomUUID } from 'node:crypto';
import { isAbsolute, relative } from 'node:path';
import { type RepaClient, RepaError, type RestrictedItem, type RunInfo } from '@repa/protocol';
import { editsLine } from '../../approval-lines.js';
import { terminalApprover } from '../../approvals.js';
import { type CliContext, claimSpace, spaceOf } from '../../cli-context.js';
import { defineCommand, SPACE_OPTIONS, SPACE_OPTIONS_HELP } from '../../command.js';
import { describeRunModel } from '../../describe-model.js';
import { exitCodeOf, type FollowedRun, followRun } from '../../follow-run.js';
import { sessionOf } from '../../resolve-id.js';
import { RunPrinter } from '../../run-printer.js';
import { usageError } from '../../usage-error.js';
import { writeError } from '../../write-error.js';
import { restrictedPaths } from '../trust-commands.js';
import { deliveryOf, requestText, runInputOf, runOverridesOf } from './run-input.js';

/** Opens the space and session of a run command and prints where the run goes. */
async function openConversation(
  context: CliContext,
  values: { space?: string | undefined; session?: string | undefined; new?: boolean | undefined },
  printer: RunPrinter,
) {
  const space = spaceOf(context, values.space);
  const client = await context.client();
  // A named session must exist already; only a new one makes the folder a space.
  const making = values.session === undefined;
  await claimSpace(context, client, space, values.space !== undefined, making);
  const opened = await sessionOf(client, space, values.session, values.new !== true);
  const restricted = await restrictedOf(client, space);
  const start = { space, ...opened, restricted };
  announceSession(context, printer, start);
  return { client, space, sessionId: opened.sessionId, start };
}

/** Where a conversation goes: its space, session and what the space's restriction leaves out. */
export interface ConversationStart {
  space: string;
  sessionId: string;
  created: boolean;
  restricted: readonly RestrictedItem[];
}

/** Prints the space and session a conversation goes to (human output; the model comes after). */
export function announceSession(
  context: CliContext,
  printer: RunPrinter,
  start: ConversationStart,
): void {
  if (context.json) return;
  printer.note(`[repa] space ${start.space}`);
  const within = relative(start.space, context.cwd);
  if (within !== '' && !within.startsWith('..') && !isAbsolute(within)) {
    printer.note(
      `[repa] you are in ${within}/ of it: paths in a request are from the space's root`,
    );
  }
  printer.note(`[repa] session ${start.sessionId}${start.created ? ' (new)' : ''}`);
  if (start.restricted.length > 0) printer.note(restrictedNote(start.restricted));
}

/**
 * Prints the model and thinking level the run (or, in chat, the next run) uses and why: the
 * `[repa] model:` line, or with --json the `{"kind":"start"}` line with the space and session.
 */
export function announceModel(
  context: CliContext,
  printer: RunPrinter,
  start: ConversationStart,
  model:
    | (Pick<RunInfo, 'model' | 'modelSource' | 'thinkingLevel'> &
        Partial<Pick<RunInfo, 'modelSettings'>>)
    | undefined,
): void {
  const { space, sessionId, created, restricted } = start;
  if (context.json) {
    const line = {
      kind: 'start',
      space,
      sessionId,
      sessionCreated: created,
      model: model?.model ?? null,
      modelSource: model?.modelSource ?? null,
      thinkingLevel: model?.thinkingLevel ?? null,
      modelDescription: model ? describeRunModel(model) : null,
      restricted,
    };
    context.stdout.write(`${JSON.stringify(line)}\n`);
  } else if (model?.model) {
    printer.note(`[repa] model: ${describeRunModel(model)}`);
  }
}

/**
 * What the space's restriction leaves out, for the header; none when the space cannot be
 * described (a damaged learning context fails the run itself, with its own message).
 */
export async function restrictedOf(client: RepaClient, space: string): Promise<RestrictedItem[]> {
  try {
    return (await client.request('space.open', { root: space })).space.restricted ?? [];
  } catch {
    return [];
  }
}

/** The header line of a restricted space: what it leaves out and the command that trusts it. */
export function restrictedNote(restricted: readonly RestrictedItem[]): string {
  const paths = restrictedPaths(restricted);
  const shown = paths.length > 4 ? [...paths.slice(0, 4), `${paths.length - 4} more`] : paths;
  return `[trust] this space is restricted: ${shown.join(', ')} have no effect until you trust it (repa trust shows what it would turn on)`;
}

/** Follows a run with Ctrl-C (SIGINT) cancelling it; a second Ctrl-C leaves at once (130). */
export async function followWithInterrupt(
  context: CliContext,
  follow: FollowedRun,
): Promise<{ run: RunInfo; code: number }> {
  const onInterrupt = () => {
    if (follow.cancelling) process.exit(130);
    follow.cancel();
  };
  process.on('SIGINT', onInterrupt);
  try {
    const run = await follow.done;
    if ((run.status === 'failed' || run.status === 'interrupted') && run.error) {
      writeError(context.stderr, RepaError.fromWire(run.error));
    }
    return { run, code: exitCodeOf(run) };
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
/** `-c`/`--continue`: the most recent session (what run and chat do without --session anyway). */
export const CONTINUE_OPTION = { continue: { type: 'boolean', short: 'c' } } as const;

/** `--new`: a new session instead of the most recent one. */
export const NEW_OPTION = { new: { type: 'boolean' } } as const;

/** `repa run`. */
export const runCommand = defineCommand({
  words: ['run'],
  summary: 'perform one request in a space and stream the reply',
  usage:
    'run [--space DIR] [--session ID | --new] [--request-id ID] [--model ID] [--thinking LEVEL] [--queue | --steer | --follow-up] [--image F[,F…]] [--attach F[,F…]] [--verbose] TEXT…|-',
  help: `Sends TEXT (the remaining arguments, joined by spaces) as one run and streams the reply, the
tool calls and every save with its receipt and what it changed (+added −removed lines and the
changed lines; repa runs diff RUN shows all, repa runs rewind RUN undoes the run). With - as the only argument, or with no argument over a
pipe (echo TEXT | repa run), the request is read from standard input. Ctrl-C cancels the run (a
second Ctrl-C leaves at once).

The session is the one --session names, else the space's most recent session (a new one when it
has none), or a new one with --new; repa chat uses the same rule.

Options:
${SPACE_OPTIONS_HELP}
  --new            start a new session
  -c, --continue   continue the most recent session (the default without --session)
  --request-id ID  idempotency key: the same id again returns the original run instead of a new one
                   (default: a random id)
  --model ID       provider/id of the model for this run only (see repa models); recorded with it
  --thinking LEVEL Pi thinking level for this run only: off, minimal, low, medium, high, xhigh
  --edits MODE     tools.edits for this run only: auto (save at once), ask (show each save's
                   diff and each command, and ask y/n/a on the terminal; off a terminal each is
                   refused), off (no saving tools)
  --study-mode M   study.mode for this run only: answer, or tutor (asks back and hints before
                   answering, with read-only tools)
  --queue          wait behind the session's runs instead of answering busy; survives a daemon
                   restart (repa runs list shows the position)
  --steer          send TEXT into the session's running run, delivered at its next turn boundary
  --follow-up      send TEXT into the session's running run, after its current work
  --image F[,F…]   image files (PNG, JPEG, GIF, WebP; at most 4 MiB each; outside the space at most 5 MiB in all) sent with the request
  --attach F[,F…]  documents of the space attached to the request; read when the run starts
  --verbose        also print [prompt]: the prompt sections the model saw and why others are
                   absent; and every changed line of each save (else the first 8)

On a terminal a spinner shows the elapsed time while the run waits for the model or a tool.
Exit code: 0 succeeded, 1 failed or interrupted, 130 cancelled, 2 usage error.
The [repa] model: line names the model and thinking level this run uses and why (decided when the
daemon accepted it: a settings level, --model, the daemon's --model, or Pi's default among the models
with credentials now).
With --json, one JSON object per line: {"kind":"start"} (space, session, model, thinkingLevel),
{"kind":"accepted"}, {"kind":"event"} for each run event, and {"kind":"finished","run":…} with the
final run record.`,
  options: {
    ...SPACE_OPTIONS,
    ...CONTINUE_OPTION,
    ...NEW_OPTION,
    'request-id': { type: 'string' },
    model: { type: 'string' },
    thinking: { type: 'string' },
    edits: { type: 'string' },
    'study-mode': { type: 'string' },
    queue: { type: 'boolean' },
    steer: { type: 'boolean' },
    'follow-up': { type: 'boolean' },
    image: { type: 'string' },
    attach: { type: 'string' },
    verbose: { type: 'boolean' },
  },
  positionals: [0, Number.POSITIVE_INFINITY],
  async run(context, args, values) {
    const exclusive = (['session', 'continue', 'new'] as const).filter(
      (name) => values[name] !== undefined,
    );
    if (exclusive.length > 1) {
      throw usageError(
        `${exclusive.map((name) => `--${name}`).join(' and ')} exclude each other.`,
        'Pass one of them.',
      );
    }
    const overrides = runOverridesOf(values);
    const delivery = deliveryOf(values);
    const text = await requestText(context, args);
    const printer = new RunPrinter({
      out: context.stdout,
      json: context.json,
      promptSections: values.verbose ? 'summary' : 'none',
      allChangedLines: values.verbose === true,
    });
    const { client, space, sessionId, start } = await openConversation(context, values, printer);
    const input = runInputOf(context, text, values, space);
    const requestId = values['request-id'] ?? randomUUID();
    const follow = followRun(
      client,
      printer,
      async () => {
        const result = await client.request('run.submit', {
          space,
          sessionId,
          requestId,
          input,
          ...(overrides ? { overrides } : {}),
          ...(delivery ? { delivery } : {}),
        });
        const { run } = result;
        // Spec R71: the model was decided when the run was accepted; the record names it.
        announceModel(context, printer, start, run.targetRunId ? undefined : run);
        if (!run.targetRunId) printer.note(editsLine(run.modelSettings?.edits));
        if (run.targetRunId) {
          const label = run.delivery === 'followUp' ? 'follow-up' : 'steer';
          printer.note(`[${label}] into run ${run.targetRunId}`);
        } else if (run.queuePosition) {
          printer.note(`[queued] run ${run.runId} waits at position ${run.queuePosition}`);
        }
        return result;
      },
      terminalApprover(context),
    );
    return (await followWithInterrupt(context, follow)).code;
  },
});
