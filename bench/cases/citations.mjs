// Benchmark 10 — citations: checking the citations of one final answer (parse + check against the
// lines the conversation read; pure, no model call, no disk), 50 citations over 20 documents of
// 2,000 lines each, and the same for an answer of the same length without citations.
import { checkCitations, parseCitations } from '@repa/content';
import { quantile } from '../lib/compare.mjs';
import { metricRows } from '../lib/report.mjs';

const DOCUMENTS = 20;
const LINES = 2_000;
const CITATIONS = 50;
/** Targets: ≤ 5 ms median with 50 citations; without citations the check costs next to nothing. */
const TARGETS = { fifty: { max: 5 }, none: { max: 0.5 } };

function readings() {
  return Array.from({ length: DOCUMENTS }, (_, doc) => ({
    target: `notes/chapter-${doc}.md`,
    identity: `repa:document/chapter-${doc}`,
    version: `v${doc}`,
    firstLine: 1,
    lines: Array.from(
      { length: LINES },
      (_, line) => `Line ${line + 1} of chapter ${doc}: the tide turns   every six hours here.`,
    ),
    totalLines: LINES,
  }));
}

function answer(withCitations) {
  const parts = [];
  for (let index = 0; index < CITATIONS; index++) {
    const doc = index % DOCUMENTS;
    const start = 1 + ((index * 37) % (LINES - 10));
    const quote = `Line ${start + 2} of chapter ${doc}: the tide turns every`;
    const cited = withCitations
      ? ` [notes/chapter-${doc}.md:${start}-${start + 4} "${quote}"]`
      : '';
    parts.push(`Claim ${index} about chapter ${doc} and its tides, stated plainly.${cited}`);
  }
  return parts.join(' ');
}

function medianMs(run, samples) {
  for (let warm = 0; warm < 20; warm++) run();
  const times = [];
  for (let sample = 0; sample < samples; sample++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), samples };
}

/** The citation check of one answer: median time with 50 citations and with none. */
export async function citations({ scale = 1 } = {}) {
  const read = readings();
  const samples = Math.max(50, Math.round(200 * scale));
  const cited = answer(true);
  const plain = answer(false);
  const statuses = checkCitations(parseCitations(cited), read).map((citation) => citation.status);
  if (statuses.length !== CITATIONS || statuses.some((status) => status !== 'verified')) {
    throw new Error(`citations: expected ${CITATIONS} verified citations, got ${statuses}`);
  }
  const fifty = medianMs(() => checkCitations(parseCitations(cited), read), samples);
  const none = medianMs(() => checkCitations(parseCitations(plain), read), samples);
  const metric = metricRows('citations');
  const row = (name, stats, target) =>
    metric(name, stats.median, 'ms', target, {
      samples: stats.samples,
      note: `p95 ${stats.p95.toFixed(2)} ms`,
    });
  return [
    row(
      `check ${CITATIONS} citations over ${DOCUMENTS} documents of ${LINES} lines (median)`,
      fifty,
      TARGETS.fifty,
    ),
    row(`check an answer of the same length without citations (median)`, none, TARGETS.none),
  ];
}
