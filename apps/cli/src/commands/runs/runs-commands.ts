import type { RunInfo } from '@repa/protocol';
import { runStatusSchema } from '@repa/protocol/schemas';
import { spaceOf } from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { didYouMean } from '../../did-you-mean.js';
import { formatTable, uniquePrefixes, writeJson } from '../../format-table.js';
import { limitOf } from '../../parse-options.js';
import { RUN_ID_AND_SPACE_HELP, resolveRunOrLatest, resolveSession } from '../../resolve-id.js';
import { isTerminal, terminalWidth } from '../../style.js';
import { usageError } from '../../usage-error.js';
import { describeRun, runRow } from './describe-run.js';

export const runsList = defineCommand({
  words: ['runs', 'list'],
  summary: 'list the runs of a space, newest first',
  usage: 'runs list [--space DIR] [--session ID] [--status STATUS] [--limit N] [--all]',
  help: `Lists runs, newest first: id, status, session, when accepted and the request; with --all
also the space. A queued run not started yet shows its place in its session's queue (queued #1
starts next); a steer or follow-up message shows the run it went into. On a terminal each id is
shortened to the fewest characters (at least 8) that tell it apart, times are relative and local,
and the table fits the window; piped, every id and time is printed in full.

Options:
  --space DIR      only runs of this space (default: the space you are in)
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
    const status = values.status;
    if (status !== undefined && !runStatusSchema.safeParse(status).success) {
      throw usageError(
        `Unknown run status '${status}'.${didYouMean(status, runStatusSchema.options)}`,
        `Use one of: ${runStatusSchema.options.join(', ')}.`,
      );
    }
    const limit = limitOf(values.limit);
    if (values.all && values.space) {
      throw usageError('--all and --space exclude each other.', 'Pass one of them.');
    }
    const client = await context.client();
    const space = values.all ? undefined : spaceOf(context, values.space);
    const session = values.session;
    const sessionId =
      session && space !== undefined
        ? (await resolveSession(client, space, session)).sessionId
        : session;
    const { runs } = await client.request('run.list', {
      ...(space === undefined ? {} : { space }),
      ...(sessionId ? { sessionId } : {}),
      ...(status ? { status: status as RunInfo['status'] } : {}),
      ...(limit ? { limit } : {}),
    });
    if (context.json) writeJson(context.stdout, { runs });
    else if (runs.length === 0) context.stdout.write('No runs.\n');
    else {
      const terminal = isTerminal(context.stdout);
      const withSpace = values.all === true;
      // Session ids are told apart among the space's sessions, run ids among the runs shown.
      const sessions =
        space === undefined
          ? runs.map((run) => run.sessionId)
          : (await client.request('session.list', { space })).sessions.map((s) => s.sessionId);
      const short = new Map([
        ...uniquePrefixes(
          runs.flatMap((run) => [run.runId, ...(run.targetRunId ? [run.targetRunId] : [])]),
        ),
        ...uniquePrefixes(sessions),
      ]);
      context.stdout.write(
        formatTable(
          ['run', 'status', ...(withSpace ? ['space'] : []), 'session', 'accepted', 'request'],
          runs.map((run) => runRow(run, terminal, withSpace, short)),
          { width: terminalWidth(context.stdout), out: context.stdout },
        ),
      );
    }
    return 0;
  },
});

export const runsShow = defineCommand({
  words: ['runs', 'show'],
  summary: 'show one run: status, settings, prompt sections, output or error',
  usage: 'runs show [RUN_ID] [--space DIR]',
  help: `Shows the record of one run: status, request, session, the prompt settings decided at
acceptance with their revisions, the prompt sections the model saw, the token usage and cost as
the provider reported them (with Pi's context-size estimate, labelled as one), and the output or
the error.

${RUN_ID_AND_SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [0, 1],
  async run(context, [runId = ''], values) {
    const client = await context.client();
    const run = await resolveRunOrLatest(context, client, runId, values.space);
    if (context.json) writeJson(context.stdout, { run });
    else context.stdout.write(describeRun(run));
    return 0;
  },
});

export const runsCancel = defineCommand({
  words: ['runs', 'cancel'],
  summary: 'cancel a run that is accepted or running',
  usage: 'runs cancel [RUN_ID] [--space DIR]',
  help: `Cancels a run: an accepted run never starts, a running one is stopped through Pi (what was saved
stays saved). Waits until the run has ended, then shows its status. A run that already ended is left
as it is.

${RUN_ID_AND_SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [0, 1],
  async run(context, [runId = ''], values) {
    const client = await context.client();
    const { run } = await client.request('run.cancel', {
      runId: (await resolveRunOrLatest(context, client, runId, values.space)).runId,
    });
    if (context.json) writeJson(context.stdout, { run });
    else context.stdout.write(`run ${run.runId} is ${run.status}\n`);
    return 0;
  },
});
