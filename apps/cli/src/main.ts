#!/usr/bin/env node
// The `repa` bin. It imports only what every Node has, so on an older Node it starts the clone's
// bundled Node 22 instead, or says what is wrong, before anything that needs Node 22 is loaded.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MINIMUM = [22, 19] as const;

function supported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

/** Runs this bin again on `node` and ends with its exit status. */
function rerun(node: string): void {
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, REPA_RERUN: '1' },
  });
  // A terminal's Ctrl-C reaches the child too (same process group); other signals are passed on.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

if (supported(process.versions.node)) {
  // Compiled code is kept between runs (in the temp folder): a command starts in less time. (Read
  // here, not imported above: an older Node has no such export and would fail before the check.)
  (await import('node:module')).enableCompileCache?.();
  await import('./start-cli.js');
} else {
  // A clone has Node 22 in node_modules (the `node-linux-*` packages `npm run setup` installs).
  const bundled = fileURLToPath(new URL('../../../node_modules/.bin/node', import.meta.url));
  if (existsSync(bundled) && process.env.REPA_RERUN !== '1') rerun(bundled);
  else {
    process.stderr.write(
      `repa: Repa needs Node ≥ ${MINIMUM.join('.')}; found ${process.version}.\n` +
        'Fix: Install Node 22.19 or newer (e.g. nvm install 22), or run repa from a clone: ' +
        'npm run install-cli puts a repa on the PATH that starts on the clone’s own Node 22.\n',
    );
    process.exit(1);
  }
}
