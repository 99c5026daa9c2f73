// The turn benchmark's comparison rows: Repa against each bare Pi side, and the bare sides against
// each other ("no Repa"), at zero latency and with every reply held back REPLY_DELAY_MS.
import { REPLY_DELAY_MS, REQUESTS, TURNS } from './conversation.mjs';
import { PI_EQUIVALENT_TOOLS } from './sides.mjs';

/**
 * The stats of each side at one latency (see allSides in index.mjs).
 * @typedef {object} SideStats
 * @property {import('../../lib/compare.mjs').Stats} pi Plain bare Pi.
 * @property {import('../../lib/compare.mjs').Stats} piDurable Bare Pi, durable edit.
 * @property {import('../../lib/compare.mjs').Stats} piEquivalent Bare Pi, the 6 tools, durable.
 * @property {import('../../lib/compare.mjs').Stats} piShaped The same with the no-op extension.
 * @property {import('../../lib/compare.mjs').Stats} piAgain Plain bare Pi again (the A/A pair).
 * @property {import('../../lib/compare.mjs').Stats} repaUsed Repa in a space it used before.
 * @property {import('../../lib/compare.mjs').Stats} repa Repa in a fresh space.
 */

const row = (caseText, baselineLabel, baseline, candidate, target = null, candidateLabel) => ({
  bench: 'turn overhead',
  case: caseText,
  ...(baselineLabel ? { baselineLabel } : {}),
  baseline,
  ...(candidateLabel ? { candidateLabel } : {}),
  candidate,
  target,
});

/**
 * Repa against each bare Pi side and the bare sides against each other, each group with its A/A
 * row beside it. The target is Repa against Pi's floor (bare Pi with Pi's equivalents of Repa's
 * tools, durable, and a no-op extension) with 50 ms replies: there the A/A pair lands within a
 * fraction of a percent. At zero latency two identical sides land up to ~20% apart and Pi's floor
 * alone costs 1.0–1.2× the durable-edit baseline, so those rows are diagnostics.
 * @param {SideStats} zero
 * @param {SideStats} delayedStats
 */
export function comparisonRows(zero, delayedStats) {
  const { pi, piDurable, piEquivalent, piShaped, piAgain, repaUsed, repa } = zero;
  const {
    pi: piDelayed,
    piDurable: piDurableDelayed,
    piEquivalent: piEquivalentDelayed,
    piShaped: piShapedDelayed,
    piAgain: piAgainDelayed,
    repaUsed: repaUsedDelayed,
    repa: repaDelayed,
  } = delayedStats;
  const tools = `${PI_EQUIVALENT_TOOLS.join(', ')}; edit and write durable`;
  const delayed = `replies after ${REPLY_DELAY_MS} ms`;
  return [
    row(`${TURNS} turns × (read + edit + answer), faux model (diagnostic)`, null, pi, repa),
    row(
      'no Repa: plain bare Pi vs itself, a second identical side in the same rounds (diagnostic: the resolution of these rows)',
      null,
      pi,
      piAgain,
      null,
      'bare Pi',
    ),
    row(
      'the same vs bare Pi whose edit writes durably (temp, fsync, rename, folder fsync) (diagnostic)',
      'bare Pi, durable edit',
      piDurable,
      repa,
    ),
    row(
      `the same vs bare Pi offering Pi’s own equivalents of Repa’s tools (${tools}) (diagnostic)`,
      'bare Pi, 6 tools, durable',
      piEquivalent,
      repa,
    ),
    row(
      'the same vs bare Pi with those tools and a no-op extension (handlers for before_agent_start, context, context_with_system that change nothing) (diagnostic)',
      'bare Pi, 6 tools, durable, no-op ext.',
      piShaped,
      repa,
    ),
    row(
      'the same vs bare Pi, durable edit, with Repa in a space it used before (its .repa/ made, the files identified; a new host and session) (diagnostic)',
      'bare Pi, durable edit',
      piDurable,
      repaUsed,
      null,
      'Repa, space used before',
    ),
    row(
      'no Repa: bare Pi with the 6 tools (durable) vs bare Pi, durable edit (diagnostic: Pi’s cost of the tool set)',
      'bare Pi, durable edit',
      piDurable,
      piEquivalent,
      null,
      'bare Pi, 6 tools, durable',
    ),
    row(
      'no Repa: bare Pi with the 6 tools (durable) and the no-op extension vs bare Pi, durable edit (diagnostic: Pi’s floor for a host shaped like Repa)',
      'bare Pi, durable edit',
      piDurable,
      piShaped,
      null,
      'bare Pi, 6 tools, durable, no-op ext.',
    ),
    row(
      `the same, every faux reply after ${REPLY_DELAY_MS} ms, vs Pi’s floor: bare Pi with the 6 tools (durable) and the no-op extension`,
      'bare Pi, 6 tools, durable, no-op ext.',
      piShapedDelayed,
      repaDelayed,
      { max: 1.02 },
    ),
    row(
      `no Repa: ${delayed}, plain bare Pi vs itself (diagnostic: the resolution of these rows)`,
      null,
      piDelayed,
      piAgainDelayed,
      null,
      'bare Pi',
    ),
    row(
      `no Repa: ${delayed}, bare Pi with the 6 tools (durable) and the no-op extension vs plain bare Pi (diagnostic: Pi’s floor)`,
      null,
      piDelayed,
      piShapedDelayed,
      null,
      'bare Pi, 6 tools, durable, no-op ext.',
    ),
    row(`the same, ${delayed}, vs plain bare Pi (diagnostic)`, null, piDelayed, repaDelayed),
    row(
      `the same, ${delayed}, with Repa in a space it used before (diagnostic)`,
      null,
      piDelayed,
      repaUsedDelayed,
      null,
      'Repa, space used before',
    ),
    row(
      `the same, ${delayed}, vs bare Pi, durable edit (diagnostic)`,
      'bare Pi, durable edit',
      piDurableDelayed,
      repaDelayed,
    ),
    row(
      `no Repa: ${delayed}, bare Pi with the 6 tools (durable) vs plain bare Pi (diagnostic)`,
      null,
      piDelayed,
      piEquivalentDelayed,
      null,
      'bare Pi, 6 tools, durable',
    ),
  ];
}

/**
 * Repa's added time per model request against Pi's floor with 50 ms replies: the difference of the
 * two sides' medians over the conversation's requests.
 * @param {SideStats} delayedStats
 */
export function addedPerRequestRow({ repa, piShaped }) {
  return {
    kind: 'metric',
    bench: 'turn overhead',
    case: `Repa’s added time per model request vs Pi’s floor, replies after ${REPLY_DELAY_MS} ms`,
    value: (repa.median - piShaped.median) / REQUESTS,
    unit: 'ms',
    target: null,
    samples: Math.min(repa.samples, piShaped.samples),
    note: `(Repa ${repa.median.toFixed(0)} ms − Pi’s floor ${piShaped.median.toFixed(0)} ms) / ${REQUESTS} requests per conversation`,
  };
}
