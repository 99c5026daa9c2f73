import { chmod, lstat, mkdir, open, rm, stat } from 'node:fs/promises';
import { connect, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { errnoCode, ioError } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { daemonPaths, isProcessAlive, readPidFile } from '@repa/protocol/node';

/** The daemon's socket, claimed for this process. */
export interface DaemonSocketClaim {
  /** `<appDirectory>/run/daemon.sock`. */
  socketPath: string;
  /** `<appDirectory>/run/daemon.pid`, holding this process's pid while it serves. */
  pidPath: string;
  /** Removes the pid file if it is still this process's. */
  release(): Promise<void>;
}

// Linux allows 107 bytes in a unix socket path, macOS 103.
const MAX_SOCKET_PATH_BYTES = 103;
// A start lock older than this is left over (a crash inside the few milliseconds it is held).
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 25;
const LOCK_ATTEMPTS = 200;

/**
 * Makes `server` listen on `<appDirectory>/run/daemon.sock`, one daemon per app directory.
 * Contract: `run/` is created (or tightened) to mode 0700. A socket a live daemon answers on is never
 * unlinked (`daemon_already_running`); one that refuses connections (left by a crash) is replaced.
 * Probe, unlink and listen happen under `run/daemon.lock` (created with O_EXCL), so two daemons
 * starting together cannot both see the same stale socket and unlink each other's fresh one.
 */
export async function claimDaemonSocket(
  appDirectory: string,
  server: Server,
): Promise<DaemonSocketClaim> {
  const { runDirectory, socketPath, pidPath } = daemonPaths(resolve(appDirectory));
  await ensurePrivateDirectory(runDirectory);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new RepaError('io_error', `The daemon socket path is too long: ${socketPath}`, {
      fix: `Use an app directory whose path is shorter (a socket path allows ${MAX_SOCKET_PATH_BYTES} bytes).`,
      details: { path: socketPath },
    });
  }
  const releaseLock = await acquireStartLock(join(runDirectory, 'daemon.lock'));
  try {
    if ((await probeSocket(socketPath)) === 'stale') await rm(socketPath, { force: true });
    await listen(server, socketPath);
    await chmod(socketPath, 0o600);
    await writePidFile(pidPath);
  } catch (error) {
    if (server.listening) await new Promise((done) => server.close(done));
    throw error;
  } finally {
    await releaseLock();
  }
  return {
    socketPath,
    pidPath,
    async release() {
      const owner = await readPidFile(pidPath);
      if (owner === process.pid) await rm(pidPath, { force: true });
    },
  };
}

async function ensurePrivateDirectory(directory: string): Promise<void> {
  try {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const info = await lstat(directory);
    if (!info.isDirectory()) {
      throw new RepaError('io_error', `${directory} exists and is not a directory.`, {
        fix: 'Remove it (or the link) so the daemon can create its private run directory.',
        details: { path: directory },
      });
    }
    if (process.getuid !== undefined && info.uid !== process.getuid()) {
      throw new RepaError('io_error', `${directory} belongs to another user.`, {
        fix: 'Use an app directory owned by the user who runs the daemon.',
        details: { path: directory },
      });
    }
    if ((info.mode & 0o077) !== 0) await chmod(directory, 0o700);
  } catch (error) {
    throw asIoError(error, directory);
  }
}

/** A lock held only while probing and binding; returns its release. */
async function acquireStartLock(lockPath: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw asIoError(error, lockPath);
    }
    if (await isStaleLock(lockPath)) {
      await rm(lockPath, { force: true });
      continue;
    }
    await delay(LOCK_WAIT_MS);
  }
  throw new RepaError('daemon_already_running', `Another daemon is starting in ${lockPath}.`, {
    details: { lockPath },
  });
}

async function isStaleLock(lockPath: string): Promise<boolean> {
  try {
    const [pid, info] = await Promise.all([readPidFile(lockPath), stat(lockPath)]);
    if (pid === undefined || !isProcessAlive(pid)) return true;
    // A live pid may be a reused one; nobody holds the lock this long on purpose.
    return Date.now() - info.mtimeMs > STALE_LOCK_MS;
  } catch {
    return false; // Removed meanwhile: the next attempt creates it.
  }
}

async function probeSocket(socketPath: string): Promise<'absent' | 'stale'> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(socketPath);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return 'absent';
    throw asIoError(error, socketPath);
  }
  if (!info.isSocket()) {
    throw new RepaError('io_error', `${socketPath} exists and is not a socket.`, {
      fix: 'Remove that file; the daemon keeps only its socket there.',
      details: { path: socketPath },
    });
  }
  const errno = await new Promise<string | null>((done) => {
    const probe = connect({ path: socketPath });
    probe.once('connect', () => {
      probe.destroy();
      done(null);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'unknown'));
  });
  // Only a refused connection proves nobody listens; anything else (EAGAIN when the live daemon's
  // backlog is full, EACCES) is treated as a live daemon, whose socket must never be unlinked.
  if (errno === 'ECONNREFUSED') return 'stale';
  const pid = await readPidFile(join(socketPath, '..', 'daemon.pid'));
  throw new RepaError(
    'daemon_already_running',
    `A Repa daemon is already running at ${socketPath}.`,
    {
      details: { socketPath, ...(pid === undefined ? {} : { pid }), ...(errno ? { errno } : {}) },
    },
  );
}

function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise((done, fail) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'EADDRINUSE') {
        fail(
          new RepaError('daemon_already_running', `${socketPath} is in use by another process.`, {
            details: { socketPath },
          }),
        );
      } else fail(asIoError(error, socketPath));
    };
    server.once('error', onError);
    server.listen(socketPath, () => {
      server.off('error', onError);
      done();
    });
  });
}

async function writePidFile(pidPath: string): Promise<void> {
  const handle = await open(pidPath, 'w', 0o600);
  try {
    await handle.writeFile(`${process.pid}\n`);
  } finally {
    await handle.close();
  }
}

/** Wraps a file-system failure while preparing the socket as `io_error` naming `path`. */
function asIoError(error: unknown, path: string): RepaError {
  return ioError(error, `Preparing the daemon socket at ${path}`, { path });
}
