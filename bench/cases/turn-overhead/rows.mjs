// The turn benchmark's comparison rows: Repa against each bare Pi side, and the bare sides against
// each other ("no Repa"), at zero latency and with every reply held back REPLY_DELAY_MS.
import { REPLY_DELAY_MS, TURNS } from './conversation.mjs';
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
    row(`${TURNS} turns × (read + edit + answer), faux model`, null, pi, repa, { max: 1.1 }),
    row(
      'the same vs bare Pi whose edit writes durably (temp, fsync, rename, folder fsync)',
      'bare Pi, durable edit',
      piDurable,
      repa,
      { max: 1.1 },
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
      'no Repa: bare Pi with the 6 tools (durable) vs bare Pi, durable edit — the target row’s baseline (diagnostic: Pi’s cost of the tool set)',
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
      'no Repa: plain bare Pi vs itself, a second identical side in the same rounds (diagnostic: the resolution of these rows)',
      null,
      pi,
      piAgain,
      null,
      'bare Pi',
    ),
    row(`the same, every faux reply after ${REPLY_DELAY_MS} ms`, null, piDelayed, repaDelayed, {
      max: 1.02,
    }),
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
      `the same, ${delayed}, vs bare Pi with the 6 tools and the no-op extension (diagnostic)`,
      'bare Pi, 6 tools, durable, no-op ext.',
      piShapedDelayed,
      repaDelayed,
    ),
    row(
      `no Repa: ${delayed}, bare Pi with the 6 tools (durable) vs plain bare Pi — this latency’s target baseline (diagnostic)`,
      null,
      piDelayed,
      piEquivalentDelayed,
      null,
      'bare Pi, 6 tools, durable',
    ),
    row(
      `no Repa: ${delayed}, bare Pi with the 6 tools (durable) and the no-op extension vs plain bare Pi (diagnostic: Pi’s floor)`,
      null,
      piDelayed,
      piShapedDelayed,
      null,
      'bare Pi, 6 tools, durable, no-op ext.',
    ),
    row(
      `no Repa: ${delayed}, plain bare Pi vs itself (diagnostic: the resolution of these rows)`,
      null,
      piDelayed,
      piAgainDelayed,
      null,
      'bare Pi',
    ),
  ];
}
