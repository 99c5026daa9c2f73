import { randomUUID } from 'node:crypto';
import { type RepaClient, RepaError, type V1Result } from '@repa/protocol';
import {
  type CliContext,
  claimSpace,
  passagePathOf,
  spaceOf,
  spacePathOf,
} from '../../cli-context.js';
import { defineCommand } from '../../command.js';
import { onTerminal } from '../../consent.js';
import { followRun } from '../../follow-run.js';
import { writeJson } from '../../format-table.js';
import { RunPrinter } from '../../run-printer.js';
import { usageError } from '../../usage-error.js';
import {
  announceModel,
  announceSession,
  followWithInterrupt,
  runOverridesOf,
} from '../runs/index.js';
import { chooseCards, describeDropped } from './draft-choices.js';

type Drafted = V1Result<'study.drafted'>;

/** The draft run's session: a new one, titled by what it drafts, so no earlier reading counts. */
async function draftSession(client: RepaClient, space: string, what: string) {
  const { session } = await client.request('session.create', {
    space,
    title: `study draft ${what}`,
  });
  return session.sessionId;
}

/** `repa study draft`. */
export const studyDraft = defineCommand({
  words: ['study', 'draft'],
  summary: 'draft study cards from a passage; keep those you accept',
  usage:
    'study draft [--space DIR] [--into NOTE] [--model ID] [--yes] FILE[:LINES|#pPAGE] | --card ID NOTE',
  help: `Asks the model for flashcards on a passage, as a run in a new session: it reads the passage
(notes/x.md, notes/x.md:12-18, book.pdf#p2, book.pdf#p2:3-9) with the read tool and answers in
the card format Repa tells it. Repa keeps only cards whose citation verifies against what the run
read, inside the passage asked for, whose front does not give the answer away; every other card is
listed with its reason. On a terminal each kept card is shown and you accept (a), edit (e) or drop
(d) it; the accepted cards are saved into NOTE (default cards/<source name>.md: appended, or
created) as a save of the draft run, with its receipt: repa runs rewind RUN removes them.

With --card ID NOTE, redrafts the card ID of NOTE from the passage its comment cites (as it is
now) and replaces it in NOTE keeping its id, so its review history stays.

Each saved card is its Obsidian-syntax lines (question::answer, a multi-line front, ? and the
back, or a cloze text with ==hidden== words) followed by one line
<!--repa:card {"id","cite","version","quote"}--> naming the passage it came from.

Options:
  --space DIR      the space folder (default: the space you are in)
  --into NOTE      the Markdown note to save the cards in (default: cards/<source name>.md)
  --card ID        redraft the card ID of the note NOTE instead of drafting from a passage
  --model ID       provider/id of the model for this draft only (see repa models)
  --yes            accept every kept card without asking (needed without a terminal, and with
                   --json)

Without a terminal (or with --json) and without --yes, nothing is drafted: exit 2.
Exit code: 0 cards saved (or none kept), 1 the run failed, 130 cancelled, 2 usage error.
With --json, one JSON object per line: the run's lines as repa run prints them, then
{"kind":"drafted"} (cards kept and dropped, with reasons) and {"kind":"saved"} (note, receipts).`,
  options: {
    space: { type: 'string' },
    into: { type: 'string' },
    card: { type: 'string' },
    model: { type: 'string' },
    yes: { type: 'boolean' },
  },
  positionals: [1, 1],
  async run(context, args, values) {
    const asking = values.yes !== true;
    if (asking && (!onTerminal(context) || context.json)) {
      throw usageError(
        'Without a terminal to ask on, drafting cards needs --yes (every kept card is accepted).',
        `Run it on a terminal to choose card by card, or add --yes: repa study draft ${args.join(' ')} --yes`,
      );
    }
    const space = spaceOf(context, values.space);
    const named = passagePathOf(context, space, args[0] ?? '');
    const card = values.card === undefined ? undefined : { id: values.card, note: named };
    const overrides = runOverridesOf({ model: values.model });
    const client = await context.client();
    await claimSpace(context, client, space, values.space !== undefined, true);
    const sessionId = await draftSession(client, space, card ? `of ${card.id}` : named);
    const printer = new RunPrinter({ out: context.stdout, json: context.json });
    const start = { space, sessionId, created: true, restricted: [] };
    announceSession(context, printer, start);
    const follow = followRun(client, printer, async () => {
      const result = await client.request('study.draft', {
        space,
        sessionId,
        requestId: randomUUID(),
        ...(card ? { card } : { passage: named }),
        ...(overrides ? { overrides } : {}),
      });
      announceModel(context, printer, start, result.run);
      return result;
    });
    const { run, code } = await followWithInterrupt(context, follow);
    if (code !== 0) return code;
    const drafted = await client.request('study.drafted', { runId: run.runId });
    report(context, drafted);
    const chosen = asking ? await chooseCards(context, drafted.cards) : drafted.cards;
    if (chosen.length === 0) {
      if (!context.json) context.stdout.write(`[study] no card saved (run ${run.runId})\n`);
      return 0;
    }
    const saved = await client.request('study.accept', {
      runId: run.runId,
      cards: chosen.map(({ id, front, back }) => ({ id, front, back })),
      ...(values.into === undefined ? {} : { note: spacePathOf(context, space, values.into) }),
    });
    if (context.json) {
      writeJson(context.stdout, { kind: 'saved', ...saved });
      return 0;
    }
    const receipt = saved.receipts[0];
    const replaced = saved.replaced.length > 0 ? `, ${saved.replaced.length} replaced` : '';
    context.stdout.write(
      `[saved] ${saved.note}: ${saved.cards.length} card${saved.cards.length === 1 ? '' : 's'}${replaced} (receipt ${receipt?.operationId} ${receipt?.version?.slice(0, 12)})\n` +
        `[study] undo with: repa runs rewind ${run.runId}\n`,
    );
    return 0;
  },
});

/** Prints what the draft kept and dropped (or, with --json, the `drafted` line). */
function report(context: CliContext, drafted: Drafted): void {
  if (context.json) {
    writeJson(context.stdout, { kind: 'drafted', ...drafted });
    return;
  }
  const { cards, dropped } = drafted;
  context.stdout.write(
    `[study] ${cards.length} card${cards.length === 1 ? '' : 's'} kept, ${dropped.length} dropped, from ${drafted.passage}\n`,
  );
  for (const card of dropped) context.stdout.write(`${describeDropped(card)}\n`);
  if (cards.length === 0 && dropped.length === 0) {
    throw new RepaError('model_error', 'The model proposed no card in the answer format.', {
      fix: 'See its answer above (repa runs show), then draft again or with another --model.',
    });
  }
}
