#!/usr/bin/env node
// The first step of `npm test`: checks the system tools the tests need beside Node. When some are
// missing and this runs as root with apt-get on the PATH (as CI does), it installs them; otherwise
// it stops at once (exit 1) naming the Debian packages and the command that installs them. It runs
// before the install that brings the workspace's Node 22, so on the machine's own Node (20) and
// with Node's built-ins only.
// Test seam, for scripts/check-system-tools.test.ts only: REPA_SYSTEM_CHECK_UID stands for the
// process's uid (a non-root run, or a root one, on any machine).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

// biome-ignore lint/suspicious/noUndeclaredEnvVars: the end-to-end test's Chromium, not a build input
const chromiumVariable = process.env.REPA_CHROMIUM;
const chromium = chromiumVariable ?? '/usr/bin/chromium';
// biome-ignore lint/suspicious/noUndeclaredEnvVars: the test seam above, not a build input
const uid = process.env.REPA_SYSTEM_CHECK_UID || process.getuid?.();

/** What the tests run, the Debian package that has it, and the tests that need it. */
const TOOLS = [
  {
    name: 'bwrap',
    found: () => onPath('bwrap'),
    pkg: 'bubblewrap',
    neededBy: "the bash tool's sandbox tests (packages/host, apps/cli)",
  },
  {
    // The end-to-end test starts this file, whatever the PATH holds.
    name: chromiumVariable ? `${chromium} ($REPA_CHROMIUM)` : chromium,
    found: () => isExecutable(chromium),
    pkg: 'chromium',
    neededBy: "the web app's browser tests (apps/web/test)",
  },
  {
    name: 'tmux',
    found: () => onPath('tmux'),
    pkg: 'tmux',
    neededBy: "the CLI's terminal tests (apps/cli)",
  },
  {
    name: 'tesseract',
    found: () => onPath('tesseract'),
    pkg: 'tesseract-ocr',
    neededBy: 'OCR of scanned pages (packages/documents, apps/cli)',
  },
  {
    name: 'ps',
    found: () => onPath('ps'),
    pkg: 'procps',
    neededBy: 'the installed-CLI test (apps/cli)',
  },
];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(command) {
  const folders = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return folders.some((folder) => isExecutable(join(folder, command)));
}

/** Runs apt-get quietly; undefined when it succeeded, else the end of what it said. */
function aptGet(args) {
  const result = spawnSync('apt-get', args, {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error === undefined && result.status === 0) return undefined;
  const how = result.error?.message ?? `exit ${result.signal ?? result.status}`;
  const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-8);
  return [`apt-get ${args.join(' ')} failed (${how}):`, ...said].join('\n  ');
}

/** Says what is missing, `note` if any, and `command`; exits 1. */
function stop(missing, command, note) {
  const width = Math.max(...missing.map((tool) => tool.name.length));
  const lines = [
    'npm test stopped: the tests need system tools that are missing here:',
    ...missing.map(
      (tool) => `  ${tool.name.padEnd(width)}  (package ${tool.pkg}) ${tool.neededBy}`,
    ),
    ...(note ? [note] : []),
    'Install them, then run npm test again:',
    `  ${command}`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exit(1);
}

const missing = TOOLS.filter((tool) => !tool.found());
if (missing.length > 0) {
  const packages = missing.map((tool) => tool.pkg);
  const root = Number(uid) === 0;
  const install = `${root ? '' : 'sudo '}apt-get install ${packages.join(' ')}`;
  if (!onPath('apt-get'))
    stop(missing, `${install}   (on Debian or Ubuntu; elsewhere, the same packages)`);
  if (!root) stop(missing, install);
  const why = missing.map((tool) => tool.neededBy).join('; ');
  process.stderr.write(`npm test: installing ${packages.join(' ')} with apt-get, for ${why}\n`);
  const failure = aptGet(['update', '-qq']) ?? aptGet(['install', '-y', '-qq', ...packages]);
  const still = TOOLS.filter((tool) => !tool.found());
  if (failure !== undefined) stop(missing, install, failure);
  const notFound = 'apt-get installed them, but they are still not found: check the PATH.';
  if (still.length > 0) stop(still, install, notFound);
}
