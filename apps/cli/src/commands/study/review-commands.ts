import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { RATING_NAMES, RepaError, type StudyCard } from '@repa/protocol';
import type { CliContext } from '../../cli-context.js';
import { spaceOf } from '../../cli-context.js';
import { type Command, defineCommand } from '../../command.js';
import { formatTable, writeJson } from '../../format-table.js';
import { limitOf } from '../../parse-options.js';
import { terminalWidth } from '../../style.js';
import { usageError } from '../../usage-error.js';

const CARDS_HELP = `Cards are lines of the space's notes (.md) in the Obsidian spaced-repetition syntax:
question::answer, a:::b (two cards, one each way), front lines then a line ? then back lines (??
for both ways), and ==cloze== deletions (one card each). Reviews are kept in .repa/study/reviews.log
and scheduled by FSRS (the study.* settings: study.retention, study.maximumInterval, …).`;

export const DECK_OPTION_HELP = `  --deck DECK      only the cards of a folder (notes/bio) or of notes with a tag (#bio)
  --space DIR      the space (default: the space you are in)`;

/**
 * Writes `text` to `file` all or nothing, wherever the learner named it: a new file beside it,
 * fsynced, renamed over it, then its folder fsynced (where the file system allows).
 */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new RepaError('io_error', `Could not write ${file} (${code}).`, {
      fix: 'Name a file in a folder you can write to: --anki FILE.',
      details: { errno: code },
    });
  }
  const folder = await open(dirname(file), 'r').catch(() => undefined);
  await folder?.sync().catch(() => undefined);
  await folder?.close();
}

/** `in 10m`, `in 3d`, `now`: how far `due` is from `now`, for people. */
function fromNow(due: string, now = Date.now()): string {
  const minutes = Math.round((Date.parse(due) - now) / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 60) return `in ${minutes}m`;
  if (minutes < 48 * 60) return `in ${Math.round(minutes / 60)}h`;
  return `in ${Math.round(minutes / 1440)}d`;
}

/** A card's text on one line, cut to `width` characters. */
export const oneLine = (text: string, width = 60) => {
  const flat = text.replaceAll(/\s+/gu, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

/** The changed sources of `cards`, each with its quote and the lines now. */
export function writeChanged(context: CliContext, cards: readonly StudyCard[]): void {
  for (const card of cards) {
    if (card.source.status !== 'changed') continue;
    context.stdout.write(
      `\nsource changed: ${card.id} (${card.note}:${card.line}) cites ${card.source.cite}\n` +
        `  was: ${oneLine(card.source.quote ?? '', 200)}\n` +
        `  now: ${card.source.lines === null || card.source.lines === undefined ? '(gone)' : oneLine(card.source.lines, 200)}\n`,
    );
  }
}

const studyDue = defineCommand({
  words: ['study', 'due'],
  summary: 'list the study cards due now',
  usage: 'study due [--deck DECK] [--limit N] [--space DIR]',
  help: `Lists the cards due now (new cards included): learning cards first, then reviews by due time,
then new cards in note order, with their note and line and what Good would do. A card whose cited
passage changed since it was written is marked and shown with its old and new lines.
${CARDS_HELP}

Options:
${DECK_OPTION_HELP}
  --limit N        the most cards to list (default 20)

With --json: {"cards": [{"id", "note", "line", "kind", "front", "back", "tags", "source", "fsrs",
"next": {"again", "hard", "good", "easy"}}], "total"}.`,
  options: { deck: { type: 'string' }, limit: { type: 'string' }, space: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const limit = limitOf(values.limit, 10_000) ?? 20;
    const client = await context.client();
    const result = await client.request('study.due', {
      space: spaceOf(context, values.space),
      limit,
      ...(values.deck === undefined ? {} : { deck: values.deck }),
    });
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    if (result.total === 0) {
      context.stdout.write('no cards due\n');
      return 0;
    }
    const rows = result.cards.map((card) => [
      card.id,
      `${card.note}:${card.line}`,
      card.fsrs.state,
      oneLine(card.front, 50),
      fromNow(card.next.good.due),
      card.source.status === 'changed' ? 'source changed' : '',
    ]);
    context.stdout.write(
      formatTable(['card', 'where', 'state', 'front', 'good', 'source'], rows, {
        width: terminalWidth(context.stdout),
        out: context.stdout,
      }),
    );
    const more = result.total - result.cards.length;
    if (more > 0) context.stdout.write(`… and ${more} more due (--limit shows more)\n`);
    writeChanged(context, result.cards);
    return 0;
  },
});

/** A rating as the learner wrote it (`again`…`easy`, or 1–4), 1 to 4; 0 for anything else. */
export function ratingOf(written: string): number {
  const named = (RATING_NAMES as readonly string[]).indexOf(written.trim().toLowerCase()) + 1;
  const numbered = Number(written);
  if (named > 0) return named;
  return Number.isInteger(numbered) && numbered >= 1 && numbered <= 4 ? numbered : 0;
}

const studyRate = defineCommand({
  words: ['study', 'rate'],
  summary: 'rate a card: again, hard, good or easy',
  usage: 'study rate CARD RATING [--duration-ms N] [--space DIR]',
  help: `Records one review of CARD (an id from repa study due) in the review log and prints when the
card is due next, as FSRS schedules it. ${CARDS_HELP}

Arguments:
  CARD             the card's id
  RATING           again, hard, good or easy (or 1–4)

Options:
  --duration-ms N  how long the review took
  --space DIR      the space (default: the space you are in)

With --json: {"card": {"id", …, "fsrs": {"state", "due", …}}, "reviewedAt"}.`,
  options: { space: { type: 'string' }, 'duration-ms': { type: 'string' } },
  positionals: [2, 2],
  async run(context, args, values) {
    const [card, written] = args as [string, string];
    const rating = ratingOf(written);
    if (rating === 0) {
      throw usageError(
        `RATING must be again, hard, good or easy (or 1–4), not ${JSON.stringify(written)}.`,
        `Run repa study rate ${card} good, for example.`,
      );
    }
    const duration = values['duration-ms'];
    const durationMs = duration === undefined ? undefined : Number(duration);
    if (durationMs !== undefined && (!Number.isInteger(durationMs) || durationMs < 0)) {
      throw usageError(
        `--duration-ms must be a whole number of milliseconds, not ${duration}.`,
        'Give --duration-ms 4000, for example.',
      );
    }
    const client = await context.client();
    const result = await client.request('study.rate', {
      space: spaceOf(context, values.space),
      card,
      rating,
      ...(durationMs === undefined ? {} : { durationMs }),
    });
    if (context.json) writeJson(context.stdout, result);
    else {
      const { fsrs } = result.card;
      context.stdout.write(
        `rated ${card} ${RATING_NAMES[rating - 1]}: ${fsrs.state}, due ${fromNow(fsrs.due, Date.parse(result.reviewedAt))} (${fsrs.due})\n`,
      );
    }
    return 0;
  },
});

const studyUndo = defineCommand({
  words: ['study', 'undo'],
  summary: 'take back the last rating',
  usage: 'study undo [--space DIR]',
  help: `Takes back the last rating that stands: an undo line is added to the review log (nothing is
erased) and the card gets back the state it had before. Run it again to take back the one before.

Options:
  --space DIR      the space (default: the space you are in)

With --json: {"undone": {"card", "rating", "reviewedAt"} | null, "fsrs"}.`,
  options: { space: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const client = await context.client();
    const result = await client.request('study.undo', { space: spaceOf(context, values.space) });
    if (context.json) writeJson(context.stdout, result);
    else if (result.undone === null) context.stdout.write('no rating to take back\n');
    else {
      const { card, rating } = result.undone;
      const now =
        result.fsrs === null ? 'new again' : `${result.fsrs.state}, due ${result.fsrs.due}`;
      context.stdout.write(`took back ${RATING_NAMES[rating - 1]} on ${card}: ${now}\n`);
    }
    return result.undone === null ? 1 : 0;
  },
});

const studyExport = defineCommand({
  words: ['study', 'export'],
  summary: "export the cards for Anki's text import",
  usage: 'study export --anki FILE [--deck DECK] [--space DIR]',
  help: `Writes the cards to FILE as Anki's text import (tab-separated, HTML, with file headers): each
card one Basic note whose GUID is the card's id, in the deck Repa::<its folders>, tagged repa and
with its note's tags. Importing a later export updates those notes instead of adding copies. FILE
may be anywhere; it is replaced atomically.

Options:
  --anki FILE      the file to write (relative to the current directory)
${DECK_OPTION_HELP}

With --json: {"file", "cards"}.`,
  options: { anki: { type: 'string' }, deck: { type: 'string' }, space: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    if (values.anki === undefined) {
      throw usageError('study export needs the file to write.', 'Name it with --anki FILE.');
    }
    const file = resolve(context.cwd, values.anki);
    const client = await context.client();
    const result = await client.request('study.export', {
      space: spaceOf(context, values.space),
      ...(values.deck === undefined ? {} : { deck: values.deck }),
    });
    await writeAtomically(file, result.text);
    if (context.json) writeJson(context.stdout, { file, cards: result.cards });
    else context.stdout.write(`wrote ${result.cards} cards to ${file}\n`);
    return 0;
  },
});

/** `repa study due|rate|undo|export`: study cards in notes, scheduled by FSRS (spec R100–R104). */
export const reviewCommands: Command[] = [studyDue, studyRate, studyUndo, studyExport];
