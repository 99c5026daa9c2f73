// Side-by-side measurement on tinybench: the baselines (bare Pi or a bare loop, an A/A copy) and
// the candidate (Repa) run in the same process, the order of the sides reversed every other round
// (A B C, then C B A, …) so that a slow phase of this noisy machine hits all sides alike. Samples
// of all rounds are merged.
import { Bench } from 'tinybench';

/**
 * @typedef {object} Side
 * @property {string} name Label in the table.
 * @property {() => unknown} fn The timed work of one sample.
 * @property {() => unknown} [beforeEach] Untimed preparation of each sample.
 * @property {() => unknown} [afterEach] Untimed clean-up after each sample.
 */

/**
 * @typedef {object} Stats
 * @property {number} samples
 * @property {number} median Milliseconds.
 * @property {number} p95 Milliseconds.
 * @property {number} mean Milliseconds.
 */

/** Quantile `q` (0–1) of ascending `sorted`, linearly interpolated. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const lowValue = sorted[low];
  const highValue = sorted[high];
  return lowValue + (highValue - lowValue) * (position - low);
}

/** Median, p95 and mean of raw samples (milliseconds). */
export function statsOf(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return {
    samples: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    mean,
  };
}

/**
 * Measures `sides` (baselines first, Repa last: `REPA_BENCH_SIDE=repa` picks the last one) with
 * tinybench: `rounds` benches of `iterations` samples per side after `warmup` untimed iterations,
 * the order of the sides reversed every other round. Returns each side's stats, in the order
 * given.
 * @param {{ sides: Side[], rounds?: number, iterations: number, warmup?: number,
 *   onRound?: (round: number, rounds: number) => void }} options
 * @returns {Promise<Stats[]>}
 */
export async function measureSides({ sides, rounds = 2, iterations, warmup = 2, onRound }) {
  const collected = sides.map(() => []);
  // Profiling (bench/profile.mjs) measures one side alone: REPA_BENCH_SIDE=baseline (the first
  // side) or repa (the last one; a benchmark may have more than one baseline).
  const chosen = process.env.REPA_BENCH_SIDE;
  const only = chosen === undefined ? undefined : String(chosen === 'repa' ? sides.length - 1 : 0);
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({
      iterations,
      time: 0,
      warmup: warmup > 0,
      warmupIterations: Math.max(1, warmup),
      warmupTime: 0,
      retainSamples: true,
      throws: true,
    });
    let order = sides.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    if (only !== undefined) order = order.filter((index) => String(index) === only);
    for (const index of order) {
      const side = sides[index];
      bench.add(side.name, side.fn, {
        ...(side.beforeEach ? { beforeEach: side.beforeEach } : {}),
        ...(side.afterEach ? { afterEach: side.afterEach } : {}),
      });
    }
    await bench.run();
    for (const index of order) {
      const task = bench.getTask(sides[index].name);
      const result = task?.result;
      if (!result || !('latency' in result) || !result.latency.samples) {
        const error = result && 'error' in result ? result.error : undefined;
        throw new Error(`Benchmark ${sides[index].name} produced no samples`, { cause: error });
      }
      collected[index].push(...result.latency.samples);
    }
    onRound?.(round + 1, rounds);
  }
  // A side left out while profiling reports NaN rather than breaking the callers' arithmetic.
  return collected.map((samples) =>
    samples.length > 0 ? statsOf(samples) : { samples: 0, median: NaN, p95: NaN, mean: NaN },
  );
}
