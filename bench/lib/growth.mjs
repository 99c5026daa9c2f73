// Growth between sizes: the exponent k in time ∝ size^k between consecutive measured sizes
// (k = 1 is linear). Computed from medians, for the baseline and for Repa.

/** The exponent of `t2/t1` against `n2/n1`. */
export function exponent(n1, t1, n2, t2) {
  return Math.log(t2 / t1) / Math.log(n2 / n1);
}

/**
 * Growth rows for consecutive ratio rows that carry a `size` (ascending). Target: Repa grows at
 * most like size^`maxExponent` (default 1.2, linear with room for noise and cache effects).
 */
export function growthRows(bench, rows, { maxExponent = 1.2, unit = 'entries' } = {}) {
  const sized = rows.filter((row) => typeof row.size === 'number');
  const result = [];
  for (let index = 1; index < sized.length; index++) {
    const before = sized[index - 1];
    const after = sized[index];
    result.push({
      kind: 'growth',
      bench,
      case: `${before.size.toLocaleString('en')} → ${after.size.toLocaleString('en')} ${unit}`,
      sizeRatio: after.size / before.size,
      baselineExponent: before.baseline
        ? exponent(before.size, before.baseline.median, after.size, after.baseline.median)
        : null,
      candidateExponent: exponent(
        before.size,
        before.candidate.median,
        after.size,
        after.candidate.median,
      ),
      target: { max: maxExponent },
    });
  }
  return result;
}
