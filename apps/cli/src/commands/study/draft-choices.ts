import { createInterface, type Interface } from 'node:readline/promises';
import { citationPlace, type DraftedCard, type DroppedCard } from '@repa/protocol';
import type { CliContext } from '../../cli-context.js';
import { paint } from '../../style.js';

/** One dropped card (or quiz question) on one line: its place, front, reason and what failed. */
export function describeDropped(card: DroppedCard, noun = 'card'): string {
  const front = card.front.replace(/\s+/gu, ' ');
  const shown = front.length > 60 ? `${front.slice(0, 59)}…` : front;
  return `[dropped] ${noun} ${card.index} "${shown}": ${card.reason.replaceAll('_', ' ')} (${card.explanation})`;
}

/** A card as shown for the choice: its sides and the passage it cites, with its lines. */
function describeCard(
  out: NodeJS.WritableStream,
  card: DraftedCard,
  n: number,
  of: number,
): string {
  const lines = [`Card ${n} of ${of} (${citationPlace(card.citation)})`];
  if (card.back === '') lines.push(`  ${card.front.replaceAll('\n', '\n  ')}`);
  else {
    lines.push(`  Q: ${card.front.replaceAll('\n', '\n     ')}`);
    lines.push(`  A: ${card.back.replaceAll('\n', '\n     ')}`);
  }
  const quote = card.quote.split('\n').slice(0, 3).join(' ');
  lines.push(paint(out, 'dim', `  > ${quote.length > 200 ? `${quote.slice(0, 199)}…` : quote}`));
  return `${lines.join('\n')}\n`;
}

/** Asks `question` with `initial` typed in already; Ctrl-D (input closed) answers `undefined`. */
export async function ask(
  prompt: Interface,
  question: string,
  initial = '',
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const closed = () => resolve(undefined);
    prompt.once('close', closed);
    const answer = prompt.question(question);
    if (initial !== '') prompt.write(initial);
    answer.then(
      (text) => {
        prompt.off('close', closed);
        resolve(text);
      },
      () => resolve(undefined),
    );
  });
}

/**
 * Shows each kept card and asks accept (a, the default), edit (e) or drop (d); an edit asks each
 * side with its text typed in already (one line; a multi-line side shows ` / ` between lines).
 * Input that ends (Ctrl-D) drops the cards not answered yet. Resolves with the chosen cards, as
 * edited.
 */
export async function chooseCards(
  context: CliContext,
  cards: readonly DraftedCard[],
): Promise<DraftedCard[]> {
  if (cards.length === 0) return [];
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  const chosen: DraftedCard[] = [];
  try {
    for (const [index, card] of cards.entries()) {
      context.stdout.write(`\n${describeCard(context.stdout, card, index + 1, cards.length)}`);
      let answer: string | undefined;
      do {
        answer = (await ask(prompt, 'Accept, edit or drop? [A/e/d] '))?.trim().toLowerCase();
        if (answer === undefined) return chosen;
      } while (!/^(a|accept|e|edit|d|drop)?$/u.test(answer));
      if (answer.startsWith('d')) continue;
      if (!answer.startsWith('e')) {
        chosen.push(card);
        continue;
      }
      const oneLine = (text: string) => text.replaceAll('\n', ' / ');
      const asLines = (text: string) => text.split(' / ').join('\n');
      const cloze = card.back === '';
      const front = await ask(
        prompt,
        cloze ? 'Text (==hidden== words): ' : 'Front: ',
        oneLine(card.front),
      );
      if (front === undefined) return chosen;
      const back = cloze ? '' : await ask(prompt, 'Back: ', oneLine(card.back));
      if (back === undefined) return chosen;
      chosen.push({ ...card, front: asLines(front.trim()), back: asLines(back.trim()) });
    }
  } finally {
    prompt.close();
  }
  return chosen;
}
