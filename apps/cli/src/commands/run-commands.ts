import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import {
  type RepaClient,
  RepaError,
  type RestrictedItem,
  RUN_IMAGES_MAX_INLINE_BYTES,
  type RunDelivery,
  type RunImage,
  type RunInfo,
  type RunInput,
  type RunOverrides,
  runStatusSchema,
  thinkingLevelSchema,
} from '@repa/protocol';
import { type CliContext, confirmSpace, sessionOf, spaceOf } from '../cli-context.js';
import { type Command, type OptionValues, SPACE_OPTIONS, SPACE_OPTIONS_HELP } from '../command.js';
import { describeModel } from '../describe-model.js';
import { didYouMean } from '../did-you-mean.js';
import { exitCodeOf, type FollowedRun, followRun } from '../follow-run.js';
import { formatTable, relativeTime, shortId, writeJson } from '../format-table.js';
import { resolveRun, resolveSession } from '../resolve-id.js';
import {
  describeUsage,
  RunPrinter,
  summarizePromptSections,
  UNTRUSTED_HINT,
  withheldUntrusted,
} from '../run-printer.js';
import { isTerminal, terminalWidth } from '../style.js';
import { usageError } from '../usage-error.js';
import { writeError } from '../write-error.js';

const str = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Opens the space and session of a run command and prints which model answers. */
async function openConversation(context: CliContext, values: OptionValues, printer: RunPrinter) {
  const space = spaceOf(context, str(values.space));
  // A named session must exist already; only a new one makes the folder a space.
  if (str(values.session) === undefined) {
    await confirmSpace(context, space, str(values.space) !== undefined);
  }
  const client = await context.client();
  const opened = await sessionOf(client, space, str(values.session));
  const restricted = await restrictedOf(client, space);
  return {
    client,
    space,
    ...announceSession(context, printer, space, opened, await context.model(), restricted),
  };
}

/** Prints the space, session and model a conversation goes to (`{"kind":"start"}` with --json). */
export function announceSession(
  context: CliContext,
  printer: RunPrinter,
  space: string,
  { sessionId, created }: { sessionId: string; created: boolean },
  model: string | undefined,
  restricted: readonly RestrictedItem[] = [],
): { sessionId: string } {
  if (context.json) {
    context.stdout.write(
      `${JSON.stringify({ kind: 'start', space, sessionId, sessionCreated: created, model: model ?? null, modelDescription: describeModel(model), restricted })}\n`,
    );
  } else {
    printer.note(`[repa] space ${space}`);
    printer.note(`[repa] session ${sessionId}${created ? ' (new)' : ''}`);
    printer.note(`[repa] model: ${describeModel(model)}`);
    if (restricted.length > 0) printer.note(restrictedNote(restricted));
  }
  return { sessionId };
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
  const paths = restricted.map((item) => item.path);
  const shown = paths.length > 4 ? [...paths.slice(0, 4), `${paths.length - 4} more`] : paths;
  return `[trust] this space is restricted: ${shown.join(', ')} have no effect until you trust it (repa trust shows what it would turn on)`;
}

/** Follows a run with Ctrl-C (SIGINT) cancelling it; a second Ctrl-C leaves at once (130). */
async function followWithInterrupt(
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

/** `--model` and `--thinking` as one-run overrides, or undefined when neither is given. */
function runOverridesOf(values: OptionValues): RunOverrides | undefined {
  const model = str(values.model);
  const thinking = str(values.thinking);
  if (model !== undefined && model.trim() === '')
    throw usageError('--model is empty.', 'Pass provider/id, as listed by repa models.');
  let thinkingLevel: RunOverrides['thinkingLevel'];
  if (thinking !== undefined) {
    const parsed = thinkingLevelSchema.safeParse(thinking);
    if (!parsed.success) {
      throw usageError(
        `Unknown thinking level ${thinking}.`,
        `Pass one of ${thinkingLevelSchema.options.join(', ')}.`,
      );
    }
    thinkingLevel = parsed.data;
  }
  if (model === undefined && thinkingLevel === undefined) return undefined;
  return { ...(model ? { model } : {}), ...(thinkingLevel ? { thinkingLevel } : {}) };
}

const IMAGE_TYPES: Record<string, (RunImage & { kind: 'data' })['mimeType']> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** The comma-separated file list of an option, or none. */
function filesOf(values: OptionValues, name: string): string[] {
  const text = str(values[name]);
  if (text === undefined) return [];
  const files = text.split(',').map((file) => file.trim());
  if (files.some((file) => file === '')) {
    throw usageError(`--${name} names an empty file.`, `Pass --${name} FILE[,FILE…].`);
  }
  return files;
}

/**
 * The run's input: the text, `--image` files (inside the space sent by path and read by the
 * daemon, outside it sent inline within `RUN_IMAGES_MAX_INLINE_BYTES` in all; the daemon checks
 * they are images) and `--attach` documents named relative to the space root (the daemon refuses
 * one outside it).
 */
function runInputOf(context: CliContext, text: string, values: OptionValues, space: string) {
  const input: RunInput = { type: 'text', text };
  let inlineBytes = 0;
  const images = filesOf(values, 'image').map((file): RunImage => {
    const mimeType = IMAGE_TYPES[extname(file).toLowerCase()];
    if (!mimeType) {
      throw usageError(
        `${file} is not a PNG, JPEG, GIF or WebP file (by its extension).`,
        'Pass an image file ending in .png, .jpg, .jpeg, .gif or .webp.',
      );
    }
    const absolute = resolve(context.cwd, file);
    const inSpace = relative(space, absolute);
    if (inSpace !== '' && !inSpace.startsWith('..') && !isAbsolute(inSpace)) {
      return { kind: 'file', path: inSpace.split('\\').join('/') };
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(absolute);
    } catch (error) {
      throw usageError(`Cannot read ${file}: ${(error as Error).message}`, 'Check the path.');
    }
    inlineBytes += bytes.length;
    if (inlineBytes > RUN_IMAGES_MAX_INLINE_BYTES) {
      throw usageError(
        `The images outside the space exceed ${RUN_IMAGES_MAX_INLINE_BYTES / 1024 / 1024} MiB in all (sent inline).`,
        'Move the larger images into the space (they are then sent by path), or send fewer.',
      );
    }
    return { kind: 'data', data: bytes.toString('base64'), mimeType };
  });
  const attachments = filesOf(values, 'attach').map((file) => ({
    path: relative(space, resolve(context.cwd, file)).split('\\').join('/'),
  }));
  if (images.length > 0) input.images = images;
  if (attachments.length > 0) input.attachments = attachments;
  return input;
}

/** `--queue`, `--steer` or `--follow-up` as the run's delivery (at most one of them). */
function deliveryOf(values: OptionValues): RunDelivery | undefined {
  const chosen = (
    [
      ['queue', 'queue'],
      ['steer', 'steer'],
      ['follow-up', 'followUp'],
    ] as const
  ).filter(([flag]) => values[flag] === true);
  if (chosen.length > 1) {
    throw usageError(
      `${chosen.map(([flag]) => `--${flag}`).join(' and ')} exclude each other.`,
      'Pass one of --queue, --steer and --follow-up.',
    );
  }
  return chosen[0]?.[1];
}

/** The request text: the arguments joined by spaces, or standard input for `-` or none over a pipe. */
async function requestText(context: CliContext, args: string[]): Promise<string> {
  const fromStdin =
    (args.length === 1 && args[0] === '-') || (args.length === 0 && !context.stdin.isTTY);
  if (args.length === 0 && !fromStdin) {
    throw usageError(
      'Missing the request text.',
      'Pass it: repa run TEXT, or pipe it: echo TEXT | repa run.',
    );
  }
  let text = args.join(' ');
  if (fromStdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of context.stdin) chunks.push(Buffer.from(chunk as Buffer));
    text = Buffer.concat(chunks).toString('utf8');
  }
  if (text.trim() === '') {
    throw usageError(
      fromStdin ? 'The request text on standard input is empty.' : 'The request text is empty.',
      'Pass the request: repa run TEXT, or pipe it: echo TEXT | repa run.',
    );
  }
  return fromStdin ? text.replace(/\s+$/, '') : text.trim();
}

/** `-c`/`--continue`: the most recent session (what run does without --session anyway). */
export const CONTINUE_OPTION = { continue: { type: 'boolean', short: 'c' } } as const;

const runCommand: Command = {
  words: ['run'],
  summary: 'perform one request in a space and stream the reply',
  usage:
    'run [--space DIR] [--session ID] [-c] [--request-id ID] [--model ID] [--thinking LEVEL] [--queue | --steer | --follow-up] [--image F[,F…]] [--attach F[,F…]] [--verbose] TEXT…|-',
  help: `Sends TEXT (the remaining arguments, joined by spaces) as one run and streams the reply, the
tool calls and every save with its receipt. With - as the only argument, or with no argument over a
pipe (echo TEXT | repa run), the request is read from standard input. Ctrl-C cancels the run (a
second Ctrl-C leaves at once).

Options:
${SPACE_OPTIONS_HELP}
  -c, --continue   continue the most recent session (the default without --session)
  --request-id ID  idempotency key: the same id again returns the original run instead of a new one
                   (default: a random id)
  --model ID       provider/id of the model for this run only (see repa models); recorded with it
  --thinking LEVEL Pi thinking level for this run only: off, minimal, low, medium, high, xhigh
  --queue          wait behind the session's runs instead of answering busy; survives a daemon
                   restart (repa runs list shows the position)
  --steer          send TEXT into the session's running run, delivered at its next turn boundary
  --follow-up      send TEXT into the session's running run, after its current work
  --image F[,F…]   image files (PNG, JPEG, GIF, WebP; at most 4 MiB each; outside the space at most 5 MiB in all) sent with the request
  --attach F[,F…]  documents of the space attached to the request; read when the run starts
  --verbose        also print [prompt]: the prompt sections the model saw and why others are absent

On a terminal a spinner shows the elapsed time while the run waits for the model or a tool.
Exit code: 0 succeeded, 1 failed or interrupted, 130 cancelled, 2 usage error.
With --json, one JSON object per line: {"kind":"start"}, {"kind":"accepted"}, {"kind":"event"} for each
run event, and {"kind":"finished","run":…} with the final run record.`,
  options: {
    ...SPACE_OPTIONS,
    ...CONTINUE_OPTION,
    'request-id': { type: 'string' },
    model: { type: 'string' },
    thinking: { type: 'string' },
    queue: { type: 'boolean' },
    steer: { type: 'boolean' },
    'follow-up': { type: 'boolean' },
    image: { type: 'string' },
    attach: { type: 'string' },
    verbose: { type: 'boolean' },
  },
  positionals: [0, Number.POSITIVE_INFINITY],
  async run(context, args, values) {
    if (values.continue && values.session) {
      throw usageError('--continue and --session exclude each other.', 'Pass one of them.');
    }
    const overrides = runOverridesOf(values);
    const delivery = deliveryOf(values);
    const text = await requestText(context, args);
    const printer = new RunPrinter({
      out: context.stdout,
      json: context.json,
      promptSections: values.verbose ? 'summary' : 'none',
    });
    const { client, space, sessionId } = await openConversation(context, values, printer);
    const input = runInputOf(context, text, values, space);
    const requestId = str(values['request-id']) ?? randomUUID();
    const follow = followRun(client, printer, async () => {
      const result = await client.request('run.submit', {
        space,
        sessionId,
        requestId,
        input,
        ...(overrides ? { overrides } : {}),
        ...(delivery ? { delivery } : {}),
      });
      const { run } = result;
      if (run.targetRunId) {
        const label = run.delivery === 'followUp' ? 'follow-up' : 'steer';
        printer.note(`[${label}] into run ${run.targetRunId}`);
      } else if (run.queuePosition) {
        printer.note(`[queued] run ${run.runId} waits at position ${run.queuePosition}`);
      }
      return result;
    });
    return (await followWithInterrupt(context, follow)).code;
  },
};

/** A run as a table row; on a terminal with a short id and a relative time, piped in full. */
function runRow(run: RunInfo, terminal: boolean, withSpace: boolean): string[] {
  const text = run.input.type === 'text' ? run.input.text.replace(/\s+/g, ' ') : '';
  const id = (value: string) => (terminal ? shortId(value) : value);
  return [
    id(run.runId),
    run.queuePosition
      ? `queued #${run.queuePosition}`
      : run.targetRunId
        ? `${run.status} (${run.delivery} → ${run.targetRunId.slice(0, 8)})`
        : run.status,
    ...(withSpace ? [run.space] : []),
    id(run.sessionId),
    terminal ? relativeTime(run.acceptedAt) : run.acceptedAt,
    terminal ? text : text.length > 50 ? `${text.slice(0, 49)}…` : text,
  ];
}

function describeRun(run: RunInfo): string {
  const lines = [
    `run        ${run.runId}`,
    `status     ${run.status}`,
    `request    ${run.requestId}`,
    `space      ${run.space}`,
    `session    ${run.sessionId}`,
    `attempt    ${run.attempt}${run.retryOf ? ` (retry of ${run.retryOf})` : ''}${run.resumeOf ? ` (resumes ${run.resumeOf})` : ''}`,
    ...(run.queuePosition ? [`queue      position ${run.queuePosition}`] : []),
    ...(run.targetRunId ? [`delivered  ${run.delivery} into run ${run.targetRunId}`] : []),
    `accepted   ${run.acceptedAt}`,
    ...(run.startedAt ? [`started    ${run.startedAt}`] : []),
    ...(run.endedAt ? [`ended      ${run.endedAt}`] : []),
    `input      ${run.input.type === 'text' ? run.input.text : run.input.type}`,
    ...(run.input.images?.length
      ? [
          `images     ${run.input.images.map((image) => image.path ?? `${image.mimeType} (${image.bytes} bytes)`).join(', ')}`,
        ]
      : []),
    ...(run.attachedSources?.length
      ? [
          `attached   ${run.attachedSources.map((source) => `${source.path} (${source.version.slice(0, 12)})`).join(', ')}`,
        ]
      : run.input.attachments?.length
        ? [`attached   ${run.input.attachments.map((item) => item.path).join(', ')}`]
        : []),
    `settings   ${Object.entries(run.promptSettings)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(' ')}`,
    `revisions  ${Object.entries(run.settingsRevisions)
      .map(([level, revision]) => `${level} ${revision}`)
      .join(', ')}`,
    ...(run.modelSettings
      ? [
          `model      ${run.model ?? run.modelSettings.model ?? "Pi's default"}${run.modelSettingsSources?.model === 'run' ? ' (this run only)' : ''}`,
          ...(run.connection ? [`connection ${run.connection}`] : []),
          `thinking   ${run.modelSettings.thinkingLevel ?? "Pi's default"}${run.modelSettingsSources?.thinkingLevel === 'run' ? ' (this run only)' : ''}`,
          `tools      ${run.modelSettings.tools?.join(', ') ?? 'every content and search tool'}`,
        ]
      : []),
    ...(run.promptSections ? [`prompt     ${summarizePromptSections(run.promptSections)}`] : []),
    ...(run.promptSections?.some(withheldUntrusted)
      ? [
          `trust      ${UNTRUSTED_HINT.replace('repa trust (in the space, or --space DIR)', `repa trust --space ${run.space}`)}`,
        ]
      : []),
    ...(run.restricted?.length
      ? [
          `restricted ${run.restricted.map((item) => item.path).join(', ')} (left out: the space is not trusted; repa trust --space ${run.space})`,
        ]
      : []),
    ...(run.usage ? [`usage      ${describeUsage(run.usage)}`] : []),
    ...(run.error
      ? [`error      ${run.error.message} (${run.error.code})`, `fix        ${run.error.fix}`]
      : []),
    ...(run.output !== undefined ? ['output', ...run.output.split('\n').map((l) => `  ${l}`)] : []),
  ];
  return `${lines.join('\n')}\n`;
}

const runsList: Command = {
  words: ['runs', 'list'],
  summary: 'list the runs of a space, newest first',
  usage: 'runs list [--space DIR] [--session ID] [--status STATUS] [--limit N] [--all]',
  help: `Lists runs, newest first: id, status, session, when accepted and the request; with --all
also the space. A queued run not started yet shows its place in its session's queue (queued #1
starts next); a steer or follow-up message shows the run it went into. On a terminal ids are
shortened to 8 characters, times are relative and the table fits the window; piped, every id and
time is printed in full.

Options:
  --space DIR      only runs of this space (default: the current directory)
  --session ID     only runs of this session (default: every session of the space)
  --status STATUS  only runs in this status: ${runStatusSchema.options.join(', ')}
  --limit N        at most N runs (default 50)
  --all            runs of every space`,
  options: {
    space: { type: 'string' },
    session: { type: 'string' },
    status: { type: 'string' },
    limit: { type: 'string' },
    all: { type: 'boolean' },
  },
  positionals: [0, 0],
  async run(context, _args, values) {
    const status = str(values.status);
    if (status !== undefined && !runStatusSchema.safeParse(status).success) {
      throw usageError(
        `Unknown run status '${status}'.${didYouMean(status, runStatusSchema.options)}`,
        `Use one of: ${runStatusSchema.options.join(', ')}.`,
      );
    }
    const limitText = str(values.limit);
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0 && limit <= 1000)) {
      throw usageError(
        `--limit must be a whole number from 1 to 1000, not '${limitText}'.`,
        'Pass e.g. --limit 20.',
      );
    }
    if (values.all && values.space) {
      throw usageError('--all and --space exclude each other.', 'Pass one of them.');
    }
    const client = await context.client();
    const space = spaceOf(context, str(values.space));
    const session = str(values.session);
    const sessionId =
      session && !values.all ? (await resolveSession(client, space, session)).sessionId : session;
    const { runs } = await client.request('run.list', {
      ...(values.all ? {} : { space }),
      ...(sessionId ? { sessionId } : {}),
      ...(status ? { status: status as RunInfo['status'] } : {}),
      ...(limit ? { limit } : {}),
    });
    if (context.json) writeJson(context.stdout, { runs });
    else if (runs.length === 0) context.stdout.write('No runs.\n');
    else {
      const terminal = isTerminal(context.stdout);
      const withSpace = values.all === true;
      context.stdout.write(
        formatTable(
          ['run', 'status', ...(withSpace ? ['space'] : []), 'session', 'accepted', 'request'],
          runs.map((run) => runRow(run, terminal, withSpace)),
          { width: terminalWidth(context.stdout), out: context.stdout },
        ),
      );
    }
    return 0;
  },
};

const runsShow: Command = {
  words: ['runs', 'show'],
  summary: 'show one run: status, settings, prompt sections, output or error',
  usage: 'runs show RUN_ID',
  help: `Shows the record of one run: status, request, session, the prompt settings decided at
acceptance with their revisions, the prompt sections the model saw, the token usage and cost as
the provider reported them (with Pi's context-size estimate, labelled as one), and the output or
the error.`,
  options: {},
  positionals: [1, 1],
  async run(context, [runId = '']) {
    const run = await resolveRun(await context.client(), runId);
    if (context.json) writeJson(context.stdout, { run });
    else context.stdout.write(describeRun(run));
    return 0;
  },
};

const runsCancel: Command = {
  words: ['runs', 'cancel'],
  summary: 'cancel a run that is accepted or running',
  usage: 'runs cancel RUN_ID',
  help: `Cancels a run: an accepted run never starts, a running one is stopped through Pi (what was saved
stays saved). Waits until the run has ended, then shows its status. A run that already ended is left
as it is.`,
  options: {},
  positionals: [1, 1],
  async run(context, [runId = '']) {
    const client = await context.client();
    const { run } = await client.request('run.cancel', {
      runId: (await resolveRun(client, runId)).runId,
    });
    if (context.json) writeJson(context.stdout, { run });
    else context.stdout.write(`run ${run.runId} is ${run.status}\n`);
    return 0;
  },
};

/** `runs retry` and `runs resume`: a new attempt of the run a prefix names, streamed like repa run. */
async function streamNewAttempt(
  context: CliContext,
  method: 'run.retry' | 'run.resume',
  prefix: string,
  values: OptionValues,
): Promise<number> {
  const client = await context.client();
  const runId = (await resolveRun(client, prefix)).runId;
  const printer = new RunPrinter({ out: context.stdout, json: context.json });
  if (!context.json) printer.note(`[repa] model: ${describeModel(await context.model())}`);
  const requestId = str(values['request-id']) ?? randomUUID();
  const verb = method === 'run.retry' ? 'retries' : 'resumes';
  const follow = followRun(client, printer, async () => {
    const result = await client.request(method, { runId, requestId });
    printer.note(`[repa] run ${result.run.runId} ${verb} ${runId} (attempt ${result.run.attempt})`);
    return result;
  });
  return (await followWithInterrupt(context, follow)).code;
}

const runsRetry: Command = {
  words: ['runs', 'retry'],
  summary: 'run an ended run again as a new attempt, and stream it',
  usage: 'runs retry RUN_ID [--request-id ID]',
  help: `Starts a new attempt of an ended run (same space, session and request; linked by retryOf) and
streams it like repa run. Ctrl-C cancels it.

Options:
  --request-id ID  idempotency key of the retry itself (default: a random id)

Exit code: 0 succeeded, 1 failed or interrupted, 130 cancelled, 2 usage error.`,
  options: { 'request-id': { type: 'string' } },
  positionals: [1, 1],
  run: (context, [prefix = ''], values) => streamNewAttempt(context, 'run.retry', prefix, values),
};

const runsResume: Command = {
  words: ['runs', 'resume'],
  summary: 'continue an interrupted or failed run where its history ends, and stream it',
  usage: 'runs resume RUN_ID [--request-id ID]',
  help: `Continues an interrupted or failed run as a new attempt (linked by resumeOf) in the same
session, from where its history ends: the request is not sent again, and the settings decided when
the original was accepted are kept. Streams it like repa run. Ctrl-C cancels it.

Options:
  --request-id ID  idempotency key of the resumption itself (default: a random id)

Exit code: 0 succeeded, 1 failed or interrupted, 130 cancelled, 2 usage error.`,
  options: { 'request-id': { type: 'string' } },
  positionals: [1, 1],
  run: (context, [prefix = ''], values) => streamNewAttempt(context, 'run.resume', prefix, values),
};

const runsFollow: Command = {
  words: ['runs', 'follow'],
  summary: 'follow a run from another terminal until it ends',
  usage: 'runs follow RUN_ID',
  help: `Re-attaches to a run (run.subscribe): prints what it does from now on, like repa run, until it
ends. A run that already ended prints its end. Ctrl-C cancels the run (a second Ctrl-C leaves at once).

Exit code: 0 succeeded, 1 failed or interrupted, 130 cancelled.`,
  options: {},
  positionals: [1, 1],
  async run(context, [prefix = '']) {
    const client = await context.client();
    const runId = (await resolveRun(client, prefix)).runId;
    const printer = new RunPrinter({ out: context.stdout, json: context.json });
    if (!context.json) printer.note(`[repa] following run ${runId}`);
    const follow = followRun(client, printer, async () => ({
      ...(await client.request('run.subscribe', { runId })),
      resubmitted: false,
    }));
    return (await followWithInterrupt(context, follow)).code;
  },
};

/** `repa run` and `repa runs …`. */
export const runCommands: Command[] = [
  runCommand,
  runsList,
  runsShow,
  runsCancel,
  runsRetry,
  runsResume,
  runsFollow,
];
