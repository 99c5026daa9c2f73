import { RepaError, type SaveReceipt } from '@repa/protocol';
import { parseSpacePath } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { formatCard, placeCards } from './card-markdown.js';
import type { DraftedCards } from './drafted-cards.js';

/** One card the learner accepted, with the sides as edited (absent: as drafted). */
export interface AcceptedCard {
  id: string;
  front?: string | undefined;
  back?: string | undefined;
}

/** What {@link acceptCards} saved. */
export interface AcceptedCards {
  note: string;
  cards: string[];
  replaced: string[];
  receipts: SaveReceipt[];
}

/**
 * The next operation id of `runId`'s saves (`<runId>-<n>`, one past the last recorded), so a
 * save made for the run after it ended is one of its changes: `run.diff` shows it and
 * `run.rewind` undoes it.
 */
async function nextRunOperation(store: ContentStore, runId: string): Promise<string> {
  const { records } = await store.history.records(runId);
  let last = 0;
  for (const record of records) {
    last = Math.max(
      last,
      Number(record.operationId.slice(record.operationId.lastIndexOf('-') + 1)),
    );
  }
  return `${runId}-${last + 1}`;
}

/**
 * Saves the accepted cards of a draft run into `note` (default: the draft's) as one save of that
 * run (spec R106), against the note's version now: appended, or in place of the card with the
 * same id. Each card is its Obsidian-syntax lines and its `<!--repa:card …-->` comment, its
 * citation, version and quote from the draft (never from the caller). `invalid_request` for an
 * id the draft did not keep, a note that is not Markdown, or another note for a redraft.
 */
export async function acceptCards(
  store: ContentStore,
  runId: string,
  drafted: DraftedCards,
  accepted: readonly AcceptedCard[],
  note = drafted.note,
): Promise<AcceptedCards> {
  const target = parseSpacePath(note);
  if (!/\.(md|markdown)$/iu.test(target)) {
    throw new RepaError('invalid_request', `${JSON.stringify(note)} is not a Markdown note.`, {
      fix: 'Name a note ending in .md, e.g. cards/tides.md.',
    });
  }
  const redraft = drafted.request.redraft;
  if (redraft !== undefined && parseSpacePath(redraft.note) !== target) {
    throw new RepaError(
      'invalid_request',
      `Card ${redraft.id} is in ${redraft.note}, not ${note}.`,
      {
        fix: `Leave out the note: a redraft replaces the card in ${redraft.note}.`,
      },
    );
  }
  const blocks = accepted.map((choice) => {
    const card = drafted.cards.find((kept) => kept.id === choice.id);
    if (card === undefined) {
      throw new RepaError('invalid_request', `Run ${runId} kept no card ${choice.id}.`, {
        fix: 'Accept cards by the ids study.drafted lists (dropped cards cannot be saved).',
      });
    }
    const sides = { front: choice.front ?? card.front, back: choice.back ?? card.back };
    const source = { id: card.id, cite: card.cite, version: card.version, quote: card.quote };
    return { id: card.id, markdown: formatCard(sides, source) };
  });
  let before: { text: string; version: string } | null = null;
  try {
    const snapshot = await store.read(target);
    before = { text: snapshot.bytes.toString('utf8'), version: snapshot.version };
  } catch (error) {
    if (!(RepaError.isInstance(error) && error.code === 'not_found')) throw error;
  }
  const { text, replaced } = placeCards(before?.text ?? null, blocks);
  const receipts = await store.save(
    [{ target, content: Buffer.from(text, 'utf8'), expectedVersion: before?.version ?? null }],
    { operationId: await nextRunOperation(store, runId) },
  );
  return { note: target, cards: blocks.map((block) => block.id), replaced, receipts };
}
