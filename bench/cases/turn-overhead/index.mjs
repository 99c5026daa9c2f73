// Benchmark 1 — turn overhead: the same scripted 5-turn conversation (each turn: read, edit,
// answer) through Repa's PiConversationHost and through a bare Pi AgentSession with Pi's own tools,
// in seven sides (sides.mjs) at zero latency and with every reply held back 50 ms; then a breakdown
// of Repa's content layer (breakdown.mjs).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fauxProvider } from '@earendil-works/pi-ai';
import { fauxModelChoice } from '@repa/host/testing';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { measureSides } from '../../lib/compare.mjs';
import { progress } from '../../lib/progress.mjs';
import { breakdownRows, measureBreakdowns } from './breakdown.mjs';
import { REPLY_DELAY_MS, resetFiles } from './conversation.mjs';
import { addedPerRequestRow, comparisonRows } from './rows.mjs';
import { bareSide, PI_EQUIVALENT_TOOLS, repaSide } from './sides.mjs';

/** The faux model in a fresh base folder, and a way to make fresh spaces in it. */
async function openEnvironment() {
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-turn-'));
  const agentDir = join(base, 'agent');
  const appDirectory = join(base, 'app');
  mkdirSync(appDirectory, { recursive: true });
  const faux = fauxProvider({
    models: [{ id: 'faux-1', contextWindow: 128_000, maxTokens: 16_384 }],
  });
  const { modelRuntime, model } = await fauxModelChoice(faux, 'faux/faux-1');
  let counter = 0;
  /** @type {import('./sides.mjs').TurnEnvironment & { base: string }} */
  const env = {
    base,
    agentDir,
    appDirectory,
    faux,
    modelRuntime,
    model,
    replyDelayMs: 0,
    freshSpace: () => {
      counter += 1;
      const space = join(base, `space-${counter}`);
      mkdirSync(space, { recursive: true });
      resetFiles(space);
      return space;
    },
  };
  return env;
}

/**
 * Bare Pi in four forms, plain bare Pi once more (the A/A pair), Repa in a space it used before,
 * then Repa in a fresh space as in the target row (last: the side `bench/profile.mjs turn repa`
 * measures): the same conversation on each. The keys name each side's stats (see rows.mjs).
 */
function allSides(env, settings) {
  return {
    pi: bareSide(env, 'bare Pi AgentSession'),
    piDurable: bareSide(env, 'bare Pi AgentSession, durable edit', { durable: true }),
    piEquivalent: bareSide(env, 'bare Pi AgentSession, Pi’s equivalents of Repa’s tools, durable', {
      durable: true,
      tools: PI_EQUIVALENT_TOOLS,
    }),
    piShaped: bareSide(
      env,
      'bare Pi AgentSession, Pi’s equivalents of Repa’s tools, durable, a no-op extension',
      { durable: true, tools: PI_EQUIVALENT_TOOLS, extension: true },
    ),
    // The same plain bare Pi again: an A/A pair shows how far two identical sides differ here.
    piAgain: bareSide(env, 'bare Pi AgentSession (again)'),
    repaUsed: repaSide(env, settings, true),
    repa: repaSide(env, settings),
  };
}

/** Measures all sides with `iterations` samples per round; their stats by key. */
async function compare(env, settings, label, rounds, iterations) {
  const sides = allSides(env, settings);
  const stats = await measureSides({
    iterations,
    rounds,
    warmup: 2,
    onRound: progress(label, rounds),
    sides: Object.values(sides),
  });
  return Object.fromEntries(Object.keys(sides).map((key, index) => [key, stats[index]]));
}

/** Runs benchmark 1 and returns its table rows. */
export async function turnOverhead({ scale = 1, settings = DEFAULT_PROMPT_SETTINGS } = {}) {
  const rounds = 4;
  const iterations = Math.max(2, Math.round((60 * scale) / rounds));
  process.env.PI_OFFLINE = '1';
  const env = await openEnvironment();
  const zero = await compare(env, settings, 'turn overhead', rounds, iterations);
  // The same conversation with every reply held back 50 ms (faster than any real model): how the
  // fixed overhead weighs once the model takes time. The ratios sit within a few percent of 1, so
  // this comparison takes 20 samples per side (a conversation is ~0.8 s; seven sides: ~2.5 min).
  env.replyDelayMs = REPLY_DELAY_MS;
  const delayedRounds = 4;
  const delayed = await compare(
    env,
    settings,
    `turn overhead, replies after ${REPLY_DELAY_MS} ms`,
    delayedRounds,
    Math.max(2, Math.round((20 * scale) / delayedRounds)),
  );
  env.replyDelayMs = 0;
  const breakdowns = await measureBreakdowns(env, settings);
  rmSync(env.base, { recursive: true, force: true });
  return [
    ...comparisonRows(zero, delayed),
    addedPerRequestRow(delayed),
    ...breakdownRows(breakdowns, {
      repa: zero.repa,
      pi: zero.pi,
      repaDelayed: delayed.repa,
      piDelayed: delayed.pi,
    }),
  ];
}
