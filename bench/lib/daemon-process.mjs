// Starting and stopping the real daemon (apps/daemon/dist/main.js) as a child process.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node 22 binary running this script (the workspace's, never the machine's Node 20). */
export const NODE = process.execPath;
/** The built daemon entry. */
export const DAEMON_MAIN = fileURLToPath(
  new URL('../../apps/daemon/dist/main.js', import.meta.url),
);

/**
 * Spawns the daemon for `appDirectory` on `model` (default: the embedded offline model) and
 * resolves once it printed its ready line, with the child, its socket path and the time from spawn
 * to ready (ms).
 */
export function startDaemon(appDirectory, agentDir, model = 'repa-offline') {
  mkdirSync(appDirectory, { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  const started = performance.now();
  // bench/profile.mjs daemon: the daemon writes its own CPU profile next to the bench's.
  const profile = process.env.REPA_BENCH_PROFILE_DIR;
  const child = spawn(
    NODE,
    [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      DAEMON_MAIN,
      ...['--app-dir', appDirectory, '--agent-dir', agentDir, '--model', model],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PI_OFFLINE: '1' } },
  );
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((text) => text.startsWith('repa-daemon ready'));
      if (line) {
        const socketPath = /socket=(\S+)/.exec(line)?.[1];
        resolve({ child, socketPath, readyMs: performance.now() - started, exited });
      }
    });
    void exited.then((code) =>
      reject(new Error(`The daemon exited (${code}) before it was ready: ${stderr || stdout}`)),
    );
  });
}

/** Stops a daemon started by {@link startDaemon} (SIGTERM, then waits for its exit). */
export async function stopDaemon(daemon) {
  if (daemon.child.exitCode === null) daemon.child.kill('SIGTERM');
  await daemon.exited;
}

/** Resident and peak memory of a process, in KiB, from /proc/<pid>/status. */
export function memoryOf(pid) {
  const status = readFileSync(join('/proc', String(pid), 'status'), 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rssKiB: field('VmRSS'), peakKiB: field('VmHWM') };
}
