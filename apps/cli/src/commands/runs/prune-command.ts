import { spaceOf } from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { writeJson } from '../../format-table.js';
import { usageError } from '../../usage-error.js';

const UNITS = { h: 1 / 24, d: 1, w: 7 } as const;

/** `--older-than` as days: `30d`, `12h`, `2w` or a number of days. */
export function olderThanDays(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([hdw]?)$/.exec(text.trim());
  if (!match?.[1]) {
    throw usageError(
      `--older-than takes an age like 30d, 12h or 2w, not '${text}'.`,
      'Pass e.g. --older-than 30d.',
    );
  }
  return Number(match[1]) * UNITS[(match[2] || 'd') as keyof typeof UNITS];
}

export const runsPrune = defineCommand({
  words: ['runs', 'prune'],
  summary: 'remove old ended runs from the run ledger',
  usage: 'runs prune --older-than AGE [--space DIR | --all]',
  help: `Removes from the run ledger the runs of a space that ended longer ago than AGE (30d, 12h, 2w;
a bare number is days), except those a kept run refers to (a retry, a resumption or a steer into
it), and the stored images no run uses any more. Sessions, their histories and the files of the
space stay as they are. The setting runs.retentionDays does the same by itself, once a day.

Options:
  --older-than AGE  the age of the runs to remove
  --space DIR       the space (default: the space you are in)
  --all             the runs of every space`,
  options: {
    'older-than': { type: 'string' },
    space: { type: 'string' },
    all: { type: 'boolean' },
  },
  positionals: [0, 0],
  async run(context, _args, values) {
    const age = values['older-than'];
    if (age === undefined) {
      throw usageError('runs prune needs --older-than AGE.', 'Pass e.g. --older-than 30d.');
    }
    if (values.all && values.space) {
      throw usageError('--all and --space exclude each other.', 'Pass one of them.');
    }
    const days = olderThanDays(age);
    const endedBefore = new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
    const space = values.all ? undefined : spaceOf(context, values.space);
    const result = await (await context.client()).request('run.prune', {
      endedBefore,
      ...(space ? { space } : {}),
    });
    if (context.json)
      writeJson(context.stdout, { endedBefore, ...(space ? { space } : {}), ...result });
    else {
      context.stdout.write(
        `removed ${result.pruned} run${result.pruned === 1 ? '' : 's'} that ended before ${endedBefore}${space ? ` in ${space}` : ''} (and ${result.imagesRemoved} stored image${result.imagesRemoved === 1 ? '' : 's'})\n`,
      );
    }
    return 0;
  },
});
