import { emitKeypressEvents } from 'node:readline';
import {
  citedLines,
  formatInterval,
  parseCite,
  RATING_LABELS,
  RATING_NAMES,
  type RepaClient,
  RepaError,
  type StudyDueCard,
} from '@repa/protocol';
import type { CliContext } from '../../cli-context.js';
import { spaceOf } from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { onTerminal } from '../../consent.js';
import { limitOf } from '../../parse-options.js';
import { paint } from '../../style.js';
import { usageError } from '../../usage-error.js';

/** One key as `readline` reports it. */
interface Key {
  name?: string | undefined;
  sequence?: string | undefined;
  ctrl?: boolean | undefined;
}

/** A rating given in this review: undo takes these back, last first. */
interface Given {
  index: number;
  rating: 1 | 2 | 3 | 4;
  due: string;
}

/** The lines a card's source-changed status shows: the cited passage as it was and as it is. */
function changedLines(card: StudyDueCard): string[] {
  if (card.source.status !== 'changed') return [];
  const indent = (text: string) => text.replaceAll('\n', '\n       ');
  return [
    `source changed: ${card.source.cite} no longer reads as when the card was written`,
    `  was: ${indent(card.source.quote ?? '')}`,
    `  now: ${card.source.lines === null || card.source.lines === undefined ? '(gone)' : indent(card.source.lines)}`,
  ];
}

/** The cited lines of `card`, numbered, from `files.read` (or why there are none). */
async function sourceLines(client: RepaClient, space: string, card: StudyDueCard) {
  const cite = card.source.cite;
  const passage = cite === undefined ? undefined : parseCite(cite);
  if (cite === undefined || passage === undefined) {
    return [`This card cites no passage: it is written in ${card.note}:${card.line}.`];
  }
  try {
    const read = await client.request('files.read', { space, path: passage.document });
    const lines = citedLines(read, passage);
    if (lines.length === 0) return [`${cite}: the document no longer has these lines.`];
    const width = String(lines.at(-1)?.line ?? 0).length;
    return [
      `${cite}${passage.page === undefined ? '' : ` (lines counted on page ${passage.page})`}:`,
      ...lines.map(({ line, text }) => `${String(line).padStart(width)} │ ${text}`),
    ];
  } catch (error) {
    const failed = RepaError.fromUnknown(error);
    return [`${cite}: ${failed.message} (${failed.code})`];
  }
}

/**
 * The review on a terminal: each due card's front, its back on space or Enter, a rating on 1–4
 * (each with the interval it gives), `s` the cited lines, `u` takes back this review's last
 * rating, `q` (or Ctrl-C) ends; then a summary. Written line by line, so the review stays in the
 * scrollback as it went.
 */
async function review(
  context: CliContext,
  client: RepaClient,
  space: string,
  cards: readonly StudyDueCard[],
  deck: { deck?: string },
): Promise<number> {
  const out = context.stdout;
  const say = (...lines: string[]) => out.write(`${lines.join('\n')}\n`);
  const dim = (text: string) => paint(out, 'dim', text);
  const given: Given[] = [];
  const listedAt = Date.now();
  let index = 0;
  let answered = false;
  let shownAt = Date.now();

  const showFront = () => {
    const card = cards[index] as StudyDueCard;
    answered = false;
    shownAt = Date.now();
    say(
      '',
      paint(out, 'bold', `Card ${index + 1} of ${cards.length}`) +
        dim(` · ${card.note}:${card.line} · ${card.fsrs.state}`),
      ...changedLines(card).map((line) => paint(out, 'yellow', line)),
      `Q: ${card.front.replaceAll('\n', '\n   ')}`,
      dim('space: show the answer · s: source · u: undo · q: quit'),
    );
  };
  const showBack = () => {
    const card = cards[index] as StudyDueCard;
    answered = true;
    const choices = RATING_NAMES.map(
      (name, at) =>
        `${at + 1} ${RATING_LABELS[at]} (${formatInterval(Date.parse(card.next[name].due) - listedAt)})`,
    );
    say(
      `A: ${card.back.replaceAll('\n', '\n   ')}`,
      `${choices.join(' · ')}${dim(' · s: source · u: undo · q: quit')}`,
    );
  };

  let end!: () => void;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  let busy = false;
  const act = async (key: Key) => {
    const card = cards[index] as StudyDueCard;
    const rating = Number(key.sequence);
    if (key.name === 'q' || (key.ctrl && key.name === 'c')) end();
    else if (key.name === 's') say(...(await sourceLines(client, space, card)));
    else if (key.name === 'u') {
      const last = given.pop();
      if (last === undefined) {
        say('Nothing rated in this review to take back.');
        return;
      }
      const { undone } = await client.request('study.undo', { space });
      say(
        undone === null
          ? 'No rating to take back.'
          : `Took back ${RATING_LABELS[undone.rating - 1]} on card ${last.index + 1}.`,
      );
      index = last.index;
      showFront();
    } else if (!answered && (key.name === 'space' || key.name === 'return')) showBack();
    else if (answered && rating >= 1 && rating <= 4) {
      const rated = await client.request('study.rate', {
        space,
        card: card.id,
        rating,
        durationMs: Math.min(Date.now() - shownAt, 86_400_000),
        mode: 'flip',
      });
      given.push({ index, rating: rating as Given['rating'], due: rated.card.fsrs.due });
      say(
        dim(
          `→ ${RATING_LABELS[rating - 1]}: due in ${formatInterval(Date.parse(rated.card.fsrs.due) - Date.parse(rated.reviewedAt))}`,
        ),
      );
      index += 1;
      if (index === cards.length) end();
      else showFront();
    }
  };
  const onKey = (_text: string | undefined, key: Key | undefined) => {
    if (busy || key === undefined) return;
    busy = true;
    act(key)
      .catch((error: unknown) => {
        const failed = RepaError.fromUnknown(error);
        say(`repa: ${failed.message} (${failed.code})`, `Fix: ${failed.fix}`);
      })
      .finally(() => {
        busy = false;
      });
  };

  const stdin = context.stdin as NodeJS.ReadStream;
  emitKeypressEvents(stdin);
  stdin.setRawMode(true);
  stdin.on('keypress', onKey);
  stdin.resume();
  showFront();
  try {
    await ended;
  } finally {
    stdin.off('keypress', onKey);
    stdin.setRawMode(false);
    stdin.pause();
  }
  await summary(context, client, space, cards, given, deck);
  return 0;
}

/** The end of a review: how many were rated and how, and what is due next. */
async function summary(
  context: CliContext,
  client: RepaClient,
  space: string,
  cards: readonly StudyDueCard[],
  given: readonly Given[],
  deck: { deck?: string },
): Promise<void> {
  const counts = RATING_NAMES.map(
    (name, at) => `${given.filter((one) => one.rating === at + 1).length} ${name}`,
  );
  const lines = [
    '',
    `Rated ${given.length} of ${cards.length} card${cards.length === 1 ? '' : 's'}: ${counts.join(', ')}.`,
  ];
  const now = await client.request('study.due', { space, limit: 1, ...deck });
  if (now.total > 0) {
    lines.push(
      `Due now: ${now.total} card${now.total === 1 ? '' : 's'} (repa study goes on with them).`,
    );
  } else {
    const next = given.map((one) => Date.parse(one.due)).sort((a, b) => a - b)[0];
    lines.push(
      next === undefined
        ? 'Nothing is due now.'
        : `Nothing is due now; the next card is due in ${formatInterval(next - Date.now())}.`,
    );
  }
  context.stdout.write(`${lines.join('\n')}\n`);
}

/** `repa study` (`repa study review`): review the due cards on a terminal. */
export const studyReview = defineCommand({
  words: ['study', 'review'],
  summary: 'review the due cards one at a time on a terminal (what repa study alone does)',
  usage: 'study [review] [--deck DECK] [--limit N] [--space DIR]',
  help: `Shows the due cards one at a time (learning cards first, then reviews, then new cards), with
progress (card n of m). Keys: space or Enter shows the answer; 1 Again, 2 Hard, 3 Good, 4 Easy
rate it, each shown with the interval it gives; s prints the card's cited lines with their numbers;
u takes back the last rating of this review and shows that card again; q or Ctrl-C ends. A card
whose cited passage changed since it was written shows "source changed" with the lines as they
were and as they are, before it is rated. At the end: how many were rated, by rating, and what is
due next. It needs a terminal; elsewhere use repa study due and repa study rate.

Options:
  --deck DECK      only the cards of a folder (notes/bio) or of notes with a tag (#bio)
  --limit N        the most cards to review (default 50)
  --space DIR      the space (default: the space you are in)`,
  options: { deck: { type: 'string' }, limit: { type: 'string' }, space: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    if (context.json || !onTerminal(context)) {
      throw usageError(
        'repa study reviews cards on a terminal, and this is not one (or --json was given).',
        'List the due cards with repa study due (--json for data) and rate each with repa study rate CARD again|hard|good|easy.',
      );
    }
    const limit = limitOf(values.limit, 10_000) ?? 50;
    const space = spaceOf(context, values.space);
    const client = await context.client();
    const deck = values.deck === undefined ? {} : { deck: values.deck };
    const due = await client.request('study.due', { space, limit, ...deck });
    if (due.cards.length === 0) {
      context.stdout.write(
        values.deck === undefined
          ? 'No cards are due (write question::answer lines in a note; repa study status shows progress).\n'
          : `No cards of ${values.deck} are due (repa study status shows progress).\n`,
      );
      return 0;
    }
    return review(context, client, space, due.cards, deck);
  },
});
