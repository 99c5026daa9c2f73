// The results table: markdown, printed after a run and kept in bench/README.md.

const ms = (value) =>
  value === undefined || value === null || Number.isNaN(value)
    ? '—'
    : value >= 100
      ? `${value.toFixed(0)} ms`
      : value >= 10
        ? `${value.toFixed(1)} ms`
        : `${value.toFixed(2)} ms`;

const times = (value) => (value === null || value === undefined ? '—' : `${value.toFixed(2)}×`);

/** Repa's ratio of a paired row: time ratio, or throughput ratio when higher is better. */
export function ratioOf(row) {
  if (typeof row.ratio === 'number') return row.ratio;
  return row.candidate.median / row.baseline.median;
}

/** `met`, `NOT met`, or `—` (no target). */
export function verdictOf(row) {
  const value =
    row.kind === 'growth'
      ? row.candidateExponent
      : row.kind === 'metric'
        ? row.value
        : ratioOf(row);
  if (!row.target) return '—';
  if (row.kind === 'growth' && row.baselineExponent !== null) {
    // Linear growth, unless Pi's own part already grows faster: then Repa must not add to it.
    const allowed = Math.max(row.target.max, row.baselineExponent + 0.1);
    return value <= allowed ? 'met' : 'NOT met';
  }
  if (row.target.max !== undefined && value > row.target.max) return 'NOT met';
  if (row.target.min !== undefined && value < row.target.min) return 'NOT met';
  return 'met';
}

function targetText(row) {
  if (!row.target) return '—';
  const { max, min } = row.target;
  if (row.kind === 'growth') return `k ≤ ${max}`;
  const unit = row.kind === 'metric' ? ` ${row.unit}` : '×';
  return max !== undefined ? `≤ ${max}${unit}` : `≥ ${min}${unit}`;
}

/** Markdown tables of all rows (paired ratios, growth exponents, daemon metrics). */
export function markdownTables(rows) {
  const paired = rows.filter((row) => !row.kind);
  const growth = rows.filter((row) => row.kind === 'growth');
  const metrics = rows.filter((row) => row.kind === 'metric');
  const out = [];
  out.push(
    '| Benchmark | Case | n (each side) | Without Repa: median / p95 | Repa: median / p95 | Ratio | Target | Result |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const row of paired) {
    const label = row.baselineLabel ?? 'bare Pi';
    const ratio = `${times(ratioOf(row))}${row.ratioLabel ? ` ${row.ratioLabel}` : ''}`;
    out.push(
      `| ${row.bench} | ${row.case} | ${row.baseline.samples} / ${row.candidate.samples} | ${label}: ${ms(row.baseline.median)} / ${ms(row.baseline.p95)} | ${row.candidateLabel ? `${row.candidateLabel}: ` : ''}${ms(row.candidate.median)} / ${ms(row.candidate.p95)} | ${ratio} | ${targetText(row)} | ${verdictOf(row)} |`,
    );
  }
  if (growth.length > 0) {
    out.push(
      '',
      'Growth: time ∝ size^k between consecutive sizes (k = 1 is linear), from the medians above.',
      '',
      '| Benchmark | Sizes | k without Repa | k Repa | Target | Result |',
      '|---|---|---|---|---|---|',
    );
    for (const row of growth) {
      const base = row.baselineExponent === null ? '—' : row.baselineExponent.toFixed(2);
      out.push(
        `| ${row.bench} | ${row.case} | ${base} | ${row.candidateExponent.toFixed(2)} | ${targetText(row)} | ${verdictOf(row)} |`,
      );
    }
  }
  if (metrics.length > 0) {
    out.push(
      '',
      '| Benchmark | Measure | n | Value | Target | Result | Note |',
      '|---|---|---|---|---|---|---|',
    );
    for (const row of metrics) {
      const digits = row.value >= 100 ? 0 : row.value >= 10 ? 1 : 2;
      const p95 = row.p95 === undefined ? '' : ` (p95 ${row.p95.toFixed(0)} ms)`;
      out.push(
        `| ${row.bench} | ${row.case} | ${row.samples ?? '—'} | ${row.value.toFixed(digits)} ${row.unit}${p95} | ${targetText(row)} | ${verdictOf(row)} | ${row.note ?? ''} |`,
      );
    }
  }
  return out.join('\n');
}

/**
 * The metric rows of benchmark `bench`: `metric(name, value, unit, target, extra)` is one row, a
 * value against its target (`null`: none), with `extra` (samples, note, …).
 */
export function metricRows(bench) {
  return (name, value, unit, target = null, extra = {}) => ({
    kind: 'metric',
    bench,
    case: name,
    value,
    unit,
    target,
    ...extra,
  });
}
