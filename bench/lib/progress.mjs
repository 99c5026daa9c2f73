// Progress lines for long steps, on stderr so the table on stdout stays clean.

/** Writes one progress line. */
export function log(message) {
  process.stderr.write(`  … ${message}\n`);
}

/** An `onRound` callback that logs `label: round i/n`. */
export function progress(label, rounds) {
  const started = performance.now();
  return (round) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(`${label}: round ${round}/${rounds} done (${seconds} s)`);
  };
}
