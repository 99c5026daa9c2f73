#!/usr/bin/env node
// `npm run release:check` (spec R84): every package published to a local registry as
// `changeset publish` would (`pnpm pack` rewrites `workspace:*` and `catalog:`), then each example
// of examples/ installed from it into its own empty project outside the workspace, type-checked
// with tsc (module node16, then bundler) and run. Prints each step with its time; the registry and
// every temp folder are gone when it ends, however it ends. Exit 1 on any failure.
// Usage: node scripts/release-check.mjs [--packages-from DIR] [example …]   (default: every
// example; `--packages-from` publishes the packages of another checkout, e.g. an older commit, to
// see its consumers fail).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSUMERS, checkConsumer, exampleNames } from './release/consumers.mjs';
import { startLocalRegistry } from './release/local-registry.mjs';
import { packAndPublish, stopCommands } from './release/publish.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs `label`, printing it with its time; rethrows what it threw. */
async function step(label, work) {
  const since = Date.now();
  process.stdout.write(`release:check: ${label} …\n`);
  const result = await work();
  process.stdout.write(`release:check: ${label}: ok (${seconds(since)})\n`);
  return result;
}

/** This environment without what `npm run` sets for its own scripts, on this Node. */
function cleanEnv() {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key)),
  );
  env.PATH = [dirname(process.execPath), env.PATH].join(':');
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
}

const work = mkdtempSync(join(tmpdir(), 'repa-release-'));
let registry;
let cleaned = false;
function cleanUpNow() {
  if (cleaned) return;
  cleaned = true;
  rmSync(work, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    process.stderr.write(`release:check: ${signal}: stopping\n`);
    stopCommands();
    registry?.stop();
    cleanUpNow();
    process.exit(1);
  });
}

let failed = false;
try {
  const args = process.argv.slice(2);
  const from = args.indexOf('--packages-from');
  const packages = from === -1 ? root : resolve(args.splice(from, 2)[1] ?? '');
  const wanted = args;
  const names = wanted.length > 0 ? wanted : exampleNames(root);
  for (const name of names) {
    if (!CONSUMERS[name])
      throw new Error(`examples/${name} has no entry in scripts/release/consumers.mjs`);
  }
  const env = cleanEnv();
  await step('build (turbo run build, tsc --build)', () => {
    for (const command of [
      ['turbo', 'run', 'build', '--output-logs=errors-only'],
      ['tsc', '--build'],
    ]) {
      const bin = join(packages, 'node_modules', '.bin', command[0]);
      const { status } = spawnSync(bin, command.slice(1), { cwd: packages, stdio: 'inherit', env });
      if (status !== 0) throw new Error(`${command.join(' ')} failed`);
    }
  });
  registry = await step('start Verdaccio on 127.0.0.1', () =>
    startLocalRegistry(join(work, 'registry'), env),
  );
  process.stdout.write(`release:check: registry ${registry.url}\n`);
  // The examples' own temporary folders (and npm's) go under the check's folder, removed with it.
  const temporary = join(work, 'tmp');
  mkdirSync(temporary);
  const clientEnv = { ...env, npm_config_userconfig: registry.npmrc, TMPDIR: temporary };
  const versions = await step('pack and publish every package', () =>
    packAndPublish({ root: packages, folder: join(work, 'tarballs'), env: clientEnv }),
  );
  // Two consumers at a time (installs wait on the network, type checks on the CPU); each one's
  // lines are printed together when it ends.
  const failures = [];
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const since = Date.now();
      const lines = [];
      const say = (line) => lines.push(`  ${line}`);
      process.stdout.write(`release:check: consumer ${name} …\n`);
      try {
        const folder = join(work, 'consumers', name);
        await checkConsumer({ root, name, folder, versions, env: clientEnv, say });
        lines.push(`release:check: consumer ${name}: ok (${seconds(since)})`);
      } catch (error) {
        failures.push(name);
        lines.push(`release:check: consumer ${name} FAILED (${seconds(since)}):\n${error.message}`);
      }
      process.stdout.write(`${lines.join('\n')}\n`);
    }
  };
  await Promise.all([worker(), worker()]);
  if (failures.length > 0) throw new Error(`consumers failed: ${failures.join(', ')}`);
  process.stdout.write(
    `release:check: ${names.length} consumers installed, type-checked and ran (${seconds(started)} in all)\n`,
  );
} catch (error) {
  failed = true;
  process.stderr.write(`release:check: FAILED after ${seconds(started)}: ${error.message}\n`);
} finally {
  await registry?.stop();
  cleanUpNow();
}
process.exit(failed ? 1 : 0);
