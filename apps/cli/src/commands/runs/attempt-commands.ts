import { randomUUID } from 'node:crypto';
import { terminalApprover } from '../../approvals.js';
import type { CliContext } from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { describeRunModel } from '../../describe-model.js';
import { followRun } from '../../follow-run.js';
import {
  LATEST_RUN_SPACE_HELP,
  RUN_ID_AND_SPACE_HELP,
  RUN_ID_OR_LATEST_HELP,
  resolveRunOrLatest,
} from '../../resolve-id.js';
import { RunPrinter } from '../../run-printer.js';
import { followWithInterrupt } from './run-command.js';

/**
 * `runs retry` and `runs resume`: a new attempt of the run a prefix names (left out, the space's
 * most recent), streamed like repa run.
 */
async function streamNewAttempt(
  context: CliContext,
  method: 'run.retry' | 'run.resume',
  prefix: string,
  values: { 'request-id'?: string | undefined; space?: string | undefined },
): Promise<number> {
  const requestId = values['request-id'] ?? randomUUID();
  const client = await context.client();
  const runId = (await resolveRunOrLatest(context, client, prefix, values.space)).runId;
  const printer = new RunPrinter({ out: context.stdout, json: context.json });
  const verb = method === 'run.retry' ? 'retries' : 'resumes';
  const follow = followRun(
    client,
    printer,
    async () => {
      const result = await client.request(method, { runId, requestId });
      printer.note(
        `[repa] run ${result.run.runId} ${verb} ${runId} (attempt ${result.run.attempt})`,
      );
      // The model of the new attempt, decided when it was accepted (a resumption keeps the original's).
      if (result.run.model) printer.note(`[repa] model: ${describeRunModel(result.run)}`);
      return result;
    },
    // A new attempt is sent from here, like repa run: its saves are asked about here.
    terminalApprover(context),
  );
  return (await followWithInterrupt(context, follow)).code;
}

/**
 * `runs retry` or `runs resume` (`word`): `help` says what it does; the arguments, options and exit
 * codes, which both share, follow it (`what`: the new attempt, as the option's help names it).
 */
function newAttemptCommand(word: 'retry' | 'resume', summary: string, help: string, what: string) {
  return defineCommand({
    words: ['runs', word],
    summary,
    usage: `runs ${word} [RUN_ID] [--request-id ID] [--space DIR]`,
    help: `${help}

Arguments:
${RUN_ID_OR_LATEST_HELP}

Options:
  --request-id ID  idempotency key of the ${what} itself (default: a random id)
${LATEST_RUN_SPACE_HELP}

Exit code: 0 succeeded, 1 failed or interrupted, 130 cancelled, 2 usage error.`,
    options: { 'request-id': { type: 'string' }, space: { type: 'string' } },
    positionals: [0, 1],
    run: (context, [prefix = ''], values) =>
      streamNewAttempt(context, `run.${word}`, prefix, values),
  });
}

export const runsRetry = newAttemptCommand(
  'retry',
  'run an ended run again as a new attempt, and stream it',
  `Starts a new attempt of an ended run (same space, session and request; linked by retryOf) and
streams it like repa run. Ctrl-C cancels it.`,
  'retry',
);

export const runsResume = newAttemptCommand(
  'resume',
  'continue an interrupted or failed run where its history ends, and stream it',
  `Continues an interrupted or failed run as a new attempt (linked by resumeOf) in the same
session, with the settings decided when the original was accepted. When the request reached the
session's history, the session goes on from where it ends (the request is not sent again; Pi
retries the model call as in any run); when it never did (the run failed before, e.g. on an
unreadable learning context), the request itself is sent now. Only the session's last run can be
resumed (not_last_run otherwise). Streams it like repa run. Ctrl-C cancels it.`,
  'resumption',
);

export const runsFollow = defineCommand({
  words: ['runs', 'follow'],
  summary: 'follow a run from another terminal until it ends',
  usage: 'runs follow [RUN_ID] [--space DIR]',
  help: `Re-attaches to a run (run.subscribe): prints what it does from now on, like repa run, until it
ends. A run that already ended prints its end. Ctrl-C cancels the run (a second Ctrl-C leaves at once).

${RUN_ID_AND_SPACE_HELP}

Exit code: 0 succeeded, 1 failed or interrupted, 130 cancelled.`,
  options: { space: { type: 'string' } },
  positionals: [0, 1],
  async run(context, [prefix = ''], values) {
    const client = await context.client();
    const runId = (await resolveRunOrLatest(context, client, prefix, values.space)).runId;
    const printer = new RunPrinter({ out: context.stdout, json: context.json });
    if (!context.json) printer.note(`[repa] following run ${runId}`);
    const follow = followRun(client, printer, async () => ({
      ...(await client.request('run.subscribe', { runId })),
      resubmitted: false,
    }));
    return (await followWithInterrupt(context, follow)).code;
  },
});
