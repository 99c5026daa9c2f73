#!/usr/bin/env node
// Runs each command (a shell command line) in order, every one even when an earlier one failed, and
// exits non-zero if any failed, naming them. `npm test` uses it so that a failing package does not
// hide the tests that come after it. Usage:
//   node scripts/run-all.mjs [--beside "<command>"] "<command>" "<command>" …
// `--beside` starts that command first and lets it run alongside the others (its output is held
// and printed in one block when it ends, so it does not interleave with theirs): `npm test` runs the
// checks (`tsc --build` uses one core for ~30 s) beside the tests, which need only the build.
import { spawn } from 'node:child_process';

/** Runs `command` in a shell; resolves with why it failed, or undefined. `hold` keeps its output. */
function run(command, hold = false) {
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const held = [];
    if (hold) {
      child.stdout.on('data', (chunk) => held.push(chunk));
      child.stderr.on('data', (chunk) => held.push(chunk));
    }
    child.once('error', (error) => resolve(error.message));
    child.once('close', (status, signal) => {
      if (hold) {
        process.stdout.write(`\n── ${command} (ran beside the others) ──\n`);
        process.stdout.write(Buffer.concat(held));
        process.stdout.write(`── ${command}: ${status === 0 ? 'passed' : 'FAILED'} ──\n\n`);
      }
      resolve(status === 0 ? undefined : (signal ?? `exit ${status}`));
    });
  });
}

const args = process.argv.slice(2);
const besideAt = args.indexOf('--beside');
const beside = besideAt >= 0 ? args.splice(besideAt, 2)[1] : undefined;
if (besideAt >= 0 && beside === undefined) {
  process.stderr.write('run-all: --beside needs a command.\n');
  process.exit(2);
}

const failed = [];
const besideDone =
  beside === undefined
    ? Promise.resolve()
    : run(beside, true).then((why) => {
        if (why !== undefined) failed.push(`${beside} (${why})`);
      });
for (const command of args) {
  const why = await run(command);
  if (why !== undefined) failed.push(`${command} (${why})`);
}
await besideDone;
if (failed.length > 0) {
  process.stderr.write(`\nFailed:\n${failed.map((line) => `  ${line}\n`).join('')}`);
  process.exit(1);
}
