/** Edit distance of two short strings, a swap of two neighbours counting as one edit. */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      }
      current[j] = best;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `word` when it is close enough to be a typo (or `word` is its start),
 * else undefined.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const wanted = word.toLowerCase();
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const score = wanted.length >= 2 && lower.startsWith(wanted) ? 0.5 : distance(wanted, lower);
    if (!best || score < best.score) best = { candidate, score };
  }
  if (!best) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(wanted.length, best.candidate.length) / 3));
  return best.score <= allowed ? best.candidate : undefined;
}

/** ` Did you mean 'X'?` for the closest candidate, or an empty string. */
export function didYouMean(word: string, candidates: Iterable<string>, prefix = ''): string {
  const match = closest(word, candidates);
  return match === undefined ? '' : ` Did you mean '${prefix}${match}'?`;
}
