import { createInterface } from 'node:readline/promises';
import { type RepaClient, RepaError } from '@repa/protocol';
import type { CliContext } from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { onTerminal } from '../../consent.js';
import { writeJson } from '../../format-table.js';
import { LATEST_RUN_SPACE_HELP, resolveRunOrLatest } from '../../resolve-id.js';
import { usageError } from '../../usage-error.js';
import { rewindLines, runDiffLines } from './describe-rewind.js';

/**
 * A rewind's id (`<runId>-undo-…`) is passed on as it is; a run id may be given by its start, or
 * left out for the most recent run of `space`.
 */
async function rewindableId(
  context: CliContext,
  client: RepaClient,
  idOrPrefix: string,
  space: string | undefined,
): Promise<string> {
  if (/-undo-[0-9a-f]{8}$/u.test(idOrPrefix)) return idOrPrefix;
  return (await resolveRunOrLatest(context, client, idOrPrefix, space)).runId;
}

const RUN_ID_HELP =
  "  RUN_ID           the run (or its first characters), or a rewind id; left out, the space's\n                   most recent run (named on stderr)";

export const runsDiff = defineCommand({
  words: ['runs', 'diff'],
  summary: 'show what a run changed, as a unified diff',
  usage: 'runs diff [RUN_ID [FILE]] [--space DIR]',
  help: `Prints what a run's saves changed, file by file, as a unified diff from the bytes they replaced
to the bytes they wrote (kept in the space's .repa/history/, within history.maxMegabytes and
history.maxDays), not from the files as they are now. A moved file shows both paths. Files a bash
command changed are listed: commands leave no receipts, so they have no diff and are not rewound.

Arguments:
${RUN_ID_HELP}
  FILE             only this file (a path relative to the space root)

Options:
${LATEST_RUN_SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [0, 2],
  async run(context, [idOrPrefix = '', file], values) {
    const client = await context.client();
    const runId = await rewindableId(context, client, idOrPrefix, values.space);
    const result = await client.request('run.diff', { runId, ...(file ? { file } : {}) });
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    const lines = runDiffLines(context.stdout, result.files, result.commands);
    context.stdout.write(lines.length === 0 ? 'The run saved no file.\n' : `${lines.join('\n')}\n`);
    return 0;
  },
});

export const runsRewind = defineCommand({
  words: ['runs', 'rewind'],
  summary: "undo a run's saves: each file back to its version before the run",
  usage:
    'runs rewind [RUN_ID] [--file F]… [--conversation] [--force] [--preview] [--yes] [--space DIR]',
  help: `Restores each file a run saved to its version before the run, only where the file is still
exactly what the run left: a file changed since (by you, another run or a command) is refused with
stale_version and left as it is. Files the run created are removed, moves moved back, deleted
files put back. The rewind first shows what it will restore and what it will refuse, and on a
terminal asks before it writes (without RUN_ID and a terminal, it needs --yes). Each restored file is a save with a receipt: the rewind can
itself be rewound (repa runs rewind REWIND_ID, printed at the end). Changes made by bash commands
are listed as not rewindable. Bytes evicted by history.maxMegabytes or history.maxDays are
refused with history_evicted.

Arguments:
${RUN_ID_HELP}

Options:
  --file F         only this file (repeat for more; either end of a move)
  --conversation   also move the conversation back to before the run: the next request continues
                   from there (the old branch stays in the session file)
  --force          write the old bytes over files changed since the run too (a new save each)
  --preview        only show what would be restored and refused
  --yes            rewind without asking
${LATEST_RUN_SPACE_HELP}`,
  options: {
    space: { type: 'string' },
    file: { type: 'string', multiple: true },
    conversation: { type: 'boolean' },
    force: { type: 'boolean' },
    preview: { type: 'boolean' },
    yes: { type: 'boolean' },
  },
  positionals: [0, 1],
  async run(context, [idOrPrefix = ''], values) {
    if (idOrPrefix === '' && !values.preview && !values.yes && !onTerminal(context)) {
      throw usageError(
        'Without a terminal to ask on, a rewind of the most recent run needs --yes.',
        'Name the run (repa runs list), or pass --yes (--preview only shows what it would do).',
      );
    }
    const client = await context.client();
    const runId = await rewindableId(context, client, idOrPrefix, values.space);
    const files = values.file;
    const params = {
      runId,
      ...(files && files.length > 0 ? { files } : {}),
      ...(values.conversation ? { conversation: true } : {}),
      ...(values.force ? { force: true } : {}),
    };
    const { rewind: preview } = await client.request('run.rewind', { ...params, preview: true });
    if (values.preview) {
      if (context.json) writeJson(context.stdout, { rewind: preview });
      else context.stdout.write(`${rewindLines(context.stdout, preview).join('\n')}\n`);
      return 0;
    }
    if (!context.json) {
      context.stdout.write(`${rewindLines(context.stdout, preview).join('\n')}\n`);
      if (!preview.files.some((file) => file.status === 'planned') && !params.conversation) {
        context.stdout.write('Nothing to rewind.\n');
        return preview.files.some((file) => file.status === 'refused') ? 1 : 0;
      }
      await confirmRewind(context, values.yes === true);
    }
    const { rewind } = await client.request('run.rewind', params);
    if (context.json) writeJson(context.stdout, { rewind });
    else context.stdout.write(`${rewindLines(context.stdout, rewind).join('\n')}\n`);
    return rewind.files.some((file) => file.status === 'refused') ? 1 : 0;
  },
});

/** On a terminal, asks before a rewind writes; declining ends with `cancelled`. */
async function confirmRewind(context: CliContext, yes: boolean): Promise<void> {
  if (!onTerminal(context) || yes) return;
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  try {
    const answer = await prompt.question('Rewind? [y/N] ');
    if (/^\s*(y|yes)\s*$/i.test(answer)) return;
  } finally {
    prompt.close();
  }
  throw new RepaError('cancelled', 'Nothing was rewound.', {
    fix: 'Run it again when you want the files back (--preview only shows what it would do).',
  });
}
