#!/usr/bin/env node
// Runs each command (a shell command line) in order, every one even when an earlier one failed, and
// exits non-zero if any failed, naming them. `npm test` uses it so that a failing package does not
// hide the tests that come after it. Usage: `node scripts/run-all.mjs "<command>" "<command>" …`.
import { spawnSync } from 'node:child_process';

const failed = [];
for (const command of process.argv.slice(2)) {
  const { status, signal, error } = spawnSync(command, { shell: true, stdio: 'inherit' });
  if (error !== undefined || status !== 0)
    failed.push(`${command} (${signal ?? error?.message ?? `exit ${status}`})`);
}
if (failed.length > 0) {
  process.stderr.write(`\nFailed:\n${failed.map((line) => `  ${line}\n`).join('')}`);
  process.exit(1);
}
