// Benchmark 14 — study: a space of 10,000 cards (500 notes of 20) with 100,000 reviews in its
// review log. Rating a card and showing the next one due, on the deck the daemon keeps per space
// (`StudyDeck.of`, warm), against reading the log alone (its bytes and lines) in the same run; and
// `study due` (the first 20 due cards) against a plain `find` of the space's notes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ContentStore, DEFAULT_SCHEDULER_OPTIONS, StudyDeck } from '@repa/content';
import { createEmptyCard, fsrs, generatorParameters } from 'ts-fsrs';
import { measureSides } from '../lib/compare.mjs';
import { log, progress } from '../lib/progress.mjs';

const NOTES = 500;
const CARDS_PER_NOTE = 20;
const REVIEWS_PER_CARD = 10;
/** Targets: a rating and the next card ≤ 50 ms; `study due` ≤ 2× a plain `find` of the notes. */
const TARGETS = { rate: { max: 50 }, due: { max: 2 } };

/** The review log's line for one rating, as `.repa/study/reviews.log` holds it. */
function logLine(id, card, rating, at, after, log) {
  const iso = (date) => date.toISOString();
  const cardOf = (value) => ({
    due: iso(value.due),
    stability: value.stability,
    difficulty: value.difficulty,
    elapsed_days: value.elapsed_days,
    scheduled_days: value.scheduled_days,
    learning_steps: value.learning_steps,
    reps: value.reps,
    lapses: value.lapses,
    state: value.state,
    ...(value.last_review ? { last_review: iso(value.last_review) } : {}),
  });
  const json = JSON.stringify({
    kind: 'rate',
    id,
    card,
    text: '0'.repeat(16),
    rating,
    at: iso(at),
    mode: 'flip',
    log: { ...log, due: iso(log.due), review: iso(log.review) },
    after: cardOf(after),
  });
  return `\n${crc32(json).toString(16).padStart(8, '0')} ${json}`;
}

/** Writes the notes, reads their card ids, and writes a log of 10 ratings per card. */
async function createSpace(root) {
  for (let note = 0; note < NOTES; note++) {
    const folder = join(root, `topic-${note % 20}`);
    mkdirSync(folder, { recursive: true });
    const lines = Array.from(
      { length: CARDS_PER_NOTE },
      (_, card) => `Question ${note}.${card} about the tides?::Answer ${note}.${card}`,
    );
    writeFileSync(join(folder, `note-${note}.md`), `# Note ${note}\n\n${lines.join('\n')}\n`);
  }
  const store = await ContentStore.open({ root });
  const ids = (await new StudyDeck(store).cards()).map((card) => card.id);
  const scheduler = fsrs(generatorParameters({ enable_fuzz: true }));
  const parts = ['repa.study-reviews/1'];
  let entry = 0;
  let latest = 0;
  for (const id of ids) {
    let card = createEmptyCard(new Date('2025-01-01T00:00:00Z'));
    for (let review = 0; review < REVIEWS_PER_CARD; review++) {
      const at = card.last_review ? card.due : new Date('2025-01-01T00:00:00Z');
      const rating = review % 4 === 3 ? 1 : 3;
      const next = scheduler.next(card, at, rating);
      parts.push(logLine(`r${(entry++).toString(36)}`, id, rating, at, next.card, next.log));
      card = next.card;
      latest = Math.max(latest, at.getTime());
    }
  }
  mkdirSync(join(root, '.repa', 'study'), { recursive: true });
  writeFileSync(join(root, '.repa', 'study', 'reviews.log'), parts.join(''));
  return { store, cards: ids.length, reviews: entry, latest };
}

/** Runs the study benchmark and returns its table rows. */
export async function study({ scale = 1 } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-study-'));
  try {
    const root = join(base, 'space');
    mkdirSync(root);
    log(`study: creating ${NOTES * CARDS_PER_NOTE} cards and their reviews`);
    const { store, cards, reviews, latest } = await createSpace(root);
    const logFile = join(root, '.repa', 'study', 'reviews.log');
    const deck = StudyDeck.of(store);
    const options = DEFAULT_SCHEDULER_OPTIONS;
    // Long after every review: every card is due, and each sample rates one a minute later.
    let now = latest + 400 * 86_400_000;
    const loadStarted = performance.now();
    const first = await deck.due({ now: new Date(now), limit: 1, options });
    const loadMs = performance.now() - loadStarted;
    if (deck.record.reviews !== reviews || first.total !== cards) {
      throw new Error(`study: read ${deck.record.reviews} reviews, ${first.total} due cards`);
    }
    let next = first.cards[0]?.id;
    const iterations = Math.max(5, Math.round(20 * scale));
    const rounds = 2;
    const [readLog, rate] = await measureSides({
      iterations,
      rounds,
      onRound: progress('study: rate', rounds),
      sides: [
        {
          name: 'read the review log (bytes and lines)',
          fn: () => {
            const lines = readFileSync(logFile, 'utf8').split('\n');
            if (lines.length < reviews) throw new Error('study: the log lost lines');
          },
        },
        {
          name: 'rate a card and show the next',
          fn: async () => {
            now += 60_000;
            const rated = await deck.rate(next, 3, { now: new Date(now), options });
            if (rated.card.fsrs.reps !== REVIEWS_PER_CARD + 1 && rated.card.fsrs.reps < 2) {
              throw new Error('study: the rating did not count');
            }
            next = (await deck.due({ now: new Date(now), limit: 1, options })).cards[0]?.id;
          },
        },
      ],
    });
    const [find, due] = await measureSides({
      iterations,
      rounds,
      onRound: progress('study: due', rounds),
      sides: [
        {
          name: 'find SPACE -name *.md',
          fn: () => {
            const found = spawnSync('find', [root, '-name', '*.md'], { encoding: 'utf8' });
            if (found.stdout.split('\n').length < NOTES)
              throw new Error('study: find missed notes');
          },
        },
        {
          name: 'study due (the first 20)',
          fn: async () => {
            const listed = await deck.due({ now: new Date(now), limit: 20, options });
            if (listed.cards.length !== 20) throw new Error('study: due listed too few');
          },
        },
      ],
    });
    const size = `${(cards / 1000).toFixed(0)}k cards, ${(reviews / 1000).toFixed(0)}k reviews`;
    return [
      {
        bench: 'study',
        case: `rate a card and show the next (${size}) vs reading the log alone`,
        baselineLabel: 'read log',
        baseline: readLog,
        candidate: rate,
      },
      {
        kind: 'metric',
        bench: 'study',
        case: `rate a card and show the next (${size}), median`,
        value: rate.median,
        unit: 'ms',
        target: TARGETS.rate,
        samples: rate.samples,
        note: `p95 ${rate.p95.toFixed(1)} ms`,
      },
      {
        bench: 'study',
        case: `study due, first 20 of ${size} (warm deck) vs find of the ${NOTES} notes`,
        baselineLabel: 'find',
        baseline: find,
        candidate: due,
        target: TARGETS.due,
      },
      {
        kind: 'metric',
        bench: 'study',
        case: `a deck built from the log (${size}) and the notes, first study due`,
        value: loadMs,
        unit: 'ms',
        samples: 1,
        note: 'once per space and daemon',
      },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
