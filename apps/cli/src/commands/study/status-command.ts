import { gradeCountTotal, RATING_NAMES, studyChangedText } from '@repa/protocol';
import type { CliContext } from '../../cli-context.js';
import { spaceOf, spacePathOf } from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { formatTable, relativeTime, writeJson } from '../../format-table.js';
import { terminalWidth } from '../../style.js';
import { DECK_OPTION_HELP, oneLine, writeChanged } from './review-commands.js';

const HELP_LEVELS = ['none', 'hint', 'passage'] as const;

const out = (context: CliContext) => ({
  width: terminalWidth(context.stdout),
  out: context.stdout,
});

/** `repa study status`: progress per source and version, drawn from `study.status` (spec R112). */
export const studyStatus = defineCommand({
  words: ['study', 'status'],
  summary: 'progress per source: cards, recall now, quiz answers, changed sources, 14 days ahead',
  usage: 'study status [SOURCE] [--deck DECK] [--space DIR]',
  help: `Shows, per source document and the version cards were written from and questions asked on (or
per note for cards written by hand): how many cards are new, learning, in review and due now, the
mean probability of recalling its reviewed cards now (FSRS), when it was last studied, and how many
cards and questions cite a version that changed since. Then the graded quiz answers by the help
given before the grade (an override counts as your grade), the reviews due on each of the next 14
days, and each changed card and question.

Arguments:
  SOURCE           only this source (a document's path, or a note's)

Options:
${DECK_OPTION_HELP}

With --json, one line: {"at", "sources": [{"source", "version", "cards", "new", "learning",
"review", "due", "recall", "ratings", "answers": {"none", "hint", "passage"}, "lastStudied",
"sourceChanged", "questionsChanged", "calendar"}], "calendar": [{"date", "due"}], "changed",
"changedQuestions"}.`,
  options: { deck: { type: 'string' }, space: { type: 'string' } },
  positionals: [0, 1],
  async run(context, args, values) {
    const client = await context.client();
    const space = spaceOf(context, values.space);
    const result = await client.request('study.status', {
      space,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...(args[0] === undefined ? {} : { source: spacePathOf(context, space, args[0]) }),
      ...(values.deck === undefined ? {} : { deck: values.deck }),
    });
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    if (result.sources.length === 0) {
      context.stdout.write('no cards or answers (write question::answer lines in a note)\n');
      return 0;
    }
    const now = Date.parse(result.at);
    const rows = result.sources.map((one) => [
      one.source,
      one.version === null ? 'by hand' : one.version.slice(0, 8),
      String(one.new),
      String(one.learning),
      String(one.review),
      String(one.due),
      one.recall === null ? '' : `${Math.round(one.recall * 100)}%`,
      one.lastStudied === null ? 'never' : relativeTime(one.lastStudied, now),
      studyChangedText(one),
    ]);
    context.stdout.write(
      formatTable(
        ['source', 'version', 'new', 'learning', 'review', 'due', 'recall', 'studied', 'changed'],
        rows,
        out(context),
      ),
    );
    const answered = result.sources.flatMap((one) =>
      HELP_LEVELS.filter((help) => gradeCountTotal(one.answers[help]) > 0).map((help) => [
        one.source,
        help,
        ...RATING_NAMES.map((name) => String(one.answers[help][name])),
      ]),
    );
    if (answered.length > 0) {
      context.stdout.write('\nquiz answers by help given:\n');
      context.stdout.write(
        formatTable(['source', 'help', ...RATING_NAMES], answered, out(context)),
      );
    }
    const days = result.calendar.map((day) => `${day.date.slice(5)}: ${day.due}`);
    context.stdout.write(
      `\nreviews due, next 14 days:\n  ${days.slice(0, 7).join('  ')}\n  ${days.slice(7).join('  ')}\n`,
    );
    writeChanged(context, result.changed);
    for (const question of result.changedQuestions) {
      context.stdout.write(
        `\nsource changed: question "${oneLine(question.question, 80)}" was asked on ${question.cite} as it read then (version ${question.version.slice(0, 8)})\n`,
      );
    }
    return 0;
  },
});
