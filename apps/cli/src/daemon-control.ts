import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type RepaClient, RepaError } from '@repa/protocol';
import {
  createRepaClient,
  daemonPaths,
  isProcessAlive,
  parseDaemonFailure,
  parseDaemonReady,
  readPidFile,
} from '@repa/protocol/node';

/** What `repa daemon status` reports. */
export interface DaemonStatus {
  /** Whether a daemon answers on the socket. */
  running: boolean;
  /** The app directory. */
  appDirectory: string;
  /** The socket path. */
  socketPath: string;
  /** The daemon log. */
  logPath: string;
  /** The pid from `daemon.pid`, when running. */
  pid?: number;
  /** The server's name and version from `initialize`, when running. */
  server?: { name: string; version: string };
  /** The model the daemon reports in `initialize`, when running and known. */
  model?: string;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 50;

/** The name a connection that only asks for the daemon's state gives in `initialize`. */
const PROBE_CLIENT = { name: 'repa', version: 'probe' };

/** What a daemon answers in `initialize`. */
type DaemonServer = NonNullable<DaemonStatus['server']> & { model?: string | undefined };

/**
 * A client connected to the daemon on `socketPath`, with what the daemon answered in `initialize`;
 * null when no daemon answers.
 */
async function connectTo(
  socketPath: string,
  client: { name: string; version: string },
): Promise<{ client: RepaClient; server: DaemonServer } | null> {
  const connected = createRepaClient({ socketPath }, { client });
  try {
    return { client: connected, server: (await connected.connect()).server };
  } catch (error) {
    await connected.close();
    if (RepaError.isInstance(error) && error.code === 'daemon_unavailable') return null;
    throw error;
  }
}

/** Asks the daemon's socket whether a daemon answers; resolves with its `initialize` result. */
async function probe(socketPath: string): Promise<DaemonServer | null> {
  const connected = await connectTo(socketPath, PROBE_CLIENT);
  await connected?.client.close();
  return connected?.server ?? null;
}

/** The state of the daemon of `appDirectory`, given its `initialize` answer (null: none runs). */
async function statusOf(appDirectory: string, server: DaemonServer | null): Promise<DaemonStatus> {
  const paths = daemonPaths(appDirectory);
  const base = { appDirectory, socketPath: paths.socketPath, logPath: paths.logPath };
  if (server === null) return { running: false, ...base };
  const pid = await readPidFile(paths.pidPath);
  // `initialize` reports the model once the daemon has chosen it.
  const model = server.model;
  return {
    running: true,
    ...base,
    ...(pid === undefined ? {} : { pid }),
    server,
    ...(model === undefined ? {} : { model }),
  };
}

/**
 * The daemon's state for an app directory, without starting one, and when it runs a client
 * connected to it as `client` (one connection; the caller closes it).
 */
export async function daemonConnection(
  appDirectory: string,
  client: { name: string; version: string },
): Promise<{ status: DaemonStatus; client?: RepaClient }> {
  const connected = await connectTo(daemonPaths(appDirectory).socketPath, client);
  const status = await statusOf(appDirectory, connected?.server ?? null);
  return connected ? { status, client: connected.client } : { status };
}

/** The daemon's state for an app directory, without starting one. */
export async function daemonStatus(appDirectory: string): Promise<DaemonStatus> {
  const { status, client } = await daemonConnection(appDirectory, PROBE_CLIENT);
  await client?.close();
  return status;
}

/** Options of {@link startDaemon}. */
export interface StartDaemonOptions {
  /** The app directory the daemon serves. */
  appDirectory: string;
  /** Pi's agent directory, when given on the command line. */
  agentDir?: string | undefined;
  /** `provider/id` or `repa-offline`, when given. */
  model?: string | undefined;
}

/** What {@link startDaemon} did. */
export interface StartedDaemon {
  /** False when a daemon was already running (nothing was started). */
  started: boolean;
  /** The daemon's state now. */
  status: DaemonStatus;
}

/** The daemon app's entry point, resolved through the `@repa/daemon` dependency. */
function daemonEntry(): string {
  return join(
    dirname(fileURLToPath(import.meta.resolve('@repa/daemon/package.json'))),
    'dist/main.js',
  );
}

/**
 * Starts the daemon of `appDirectory` in the background unless one already answers: a detached
 * `repa-daemon` on this Node, with stdout and stderr appended to `<appDir>/run/daemon.log`. Resolves
 * once the daemon printed its `ready` line; rejects with the daemon's own error when it exits first.
 */
export async function startDaemon(options: StartDaemonOptions): Promise<StartedDaemon> {
  const { client, ...started } = await connectDaemon({ ...options, client: PROBE_CLIENT });
  await client.close();
  return started;
}

/**
 * As {@link startDaemon}, and a client connected to the daemon as `client` (the caller closes it):
 * the connection that found the daemon running is the one kept, so a command opens one.
 */
export async function connectDaemon(
  options: StartDaemonOptions & { client: { name: string; version: string } },
): Promise<StartedDaemon & { client: RepaClient }> {
  const paths = daemonPaths(options.appDirectory);
  const running = await connectTo(paths.socketPath, options.client);
  if (running !== null) {
    return {
      started: false,
      status: await statusOf(options.appDirectory, running.server),
      client: running.client,
    };
  }
  const started = await spawnDaemon(options);
  const connected = await connectTo(paths.socketPath, options.client);
  if (connected === null) {
    throw new RepaError('daemon_unavailable', 'The daemon stopped as soon as it was ready.', {
      fix: `Read ${paths.logPath} for what went wrong.`,
      details: { logPath: paths.logPath },
    });
  }
  return {
    started,
    status: await statusOf(options.appDirectory, connected.server),
    client: connected.client,
  };
}

/**
 * Spawns the daemon (see {@link startDaemon}) and waits for its `ready` line; resolves with false
 * when another `repa` started the same daemon at the same moment.
 */
async function spawnDaemon(options: StartDaemonOptions): Promise<boolean> {
  const paths = daemonPaths(options.appDirectory);
  await mkdir(paths.runDirectory, { recursive: true, mode: 0o700 });
  const log = openSync(paths.logPath, 'a', 0o600);
  const offset = fstatSync(log).size;
  const args = [daemonEntry(), '--app-dir', options.appDirectory];
  if (options.agentDir) args.push('--agent-dir', options.agentDir);
  if (options.model) args.push('--model', options.model);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  try {
    const child = spawn(process.execPath, args, {
      cwd: paths.runDirectory,
      detached: true,
      stdio: ['ignore', log, log],
      env: process.env,
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
    });
    child.once('error', () => {
      exit = { code: null, signal: null };
    });
    try {
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (Date.now() < deadline) {
        const output = await readFrom(paths.logPath, offset);
        if (parseDaemonReady(output) !== null) return true;
        if (exit) {
          const failure = parseDaemonFailure(output);
          if (failure?.code === 'daemon_already_running' && (await probe(paths.socketPath))) {
            // Another repa started the same daemon at the same moment: use that one.
            return false;
          }
          if (failure) {
            throw new RepaError(failure.code, `The daemon did not start: ${failure.message}`, {
              fix: failure.fix,
              details: { logPath: paths.logPath },
            });
          }
          throw new RepaError(
            'daemon_unavailable',
            `The daemon exited (${exit.signal ?? `code ${exit.code}`}) before it was ready.`,
            {
              fix: `Read ${paths.logPath} for what went wrong.`,
              details: { logPath: paths.logPath },
            },
          );
        }
        await delay(POLL_MS);
      }
      throw new RepaError('daemon_unavailable', 'The daemon did not get ready within 60 seconds.', {
        fix: `Read ${paths.logPath}; stop it with repa daemon stop and try again.`,
        details: { logPath: paths.logPath },
      });
    } finally {
      child.unref();
    }
  } finally {
    closeSync(log);
  }
}

async function readFrom(path: string, offset: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** What {@link stopDaemon} did. */
export interface StoppedDaemon {
  /** False when no daemon was running. */
  stopped: boolean;
  /** The pid that was stopped. */
  pid?: number;
}

/**
 * Stops the daemon of `appDirectory`: SIGTERM to the pid in `run/daemon.pid`, then waits until the
 * process is gone (active runs get the daemon's grace period). A pid is signalled only while a daemon
 * answers on the socket, so a stale pid file never kills an unrelated process.
 */
export async function stopDaemon(appDirectory: string): Promise<StoppedDaemon> {
  const paths = daemonPaths(appDirectory);
  if ((await probe(paths.socketPath)) === null) return { stopped: false };
  const pid = await readPidFile(paths.pidPath);
  if (pid === undefined) {
    throw new RepaError(
      'io_error',
      `A daemon answers on ${paths.socketPath} but has no pid file.`,
      {
        fix: `Stop the process that listens on ${paths.socketPath} by hand.`,
      },
    );
  }
  try {
    process.kill(pid, 'SIGTERM');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) {
      throw new RepaError('io_error', `The daemon (pid ${pid}) did not stop within 30 seconds.`, {
        fix: `Look at ${paths.logPath}; end it with kill -KILL ${pid} if it hangs.`,
      });
    }
    await delay(POLL_MS);
  }
  return { stopped: true, pid };
}
