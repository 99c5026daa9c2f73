import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A test run's global set-up: every temporary file of the run (its test workers and the daemons and
 * `repa` processes they start inherit `TMPDIR`) goes under one folder, removed when the run ends, so
 * a test that forgets its own leaves nothing behind.
 */
export default function tempRoot(): () => void {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: where temp files go, not a build input
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'repa-test-'));
  process.env.TMPDIR = root;
  return () => {
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: as above
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
