import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, relative, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RepaError } from '@repa/protocol';
import { createPidsGroup, groupPids, removePidsGroup } from './pids-group.js';
import { descendants, kill } from './processes.js';

/** How one sandboxed command is confined and stopped. */
export interface SandboxOptions {
  /** The space root: the only folder the command may write (`.repa` excepted). */
  space: string;
  /** Folders hidden from the command besides the home folder (e.g. Repa's and Pi's own folders). */
  hidden: readonly string[];
  /** Paths inside the space bound read-only (its git folders and `.git` files, see `findGitFolders`). */
  readOnly: readonly string[];
  /** The whole space bound read-only (the run may change no file: `tools.edits` `off`). */
  spaceReadOnly?: boolean | undefined;
  /** The most processes the command may have at once (a fork bomb fails at this limit). */
  maxProcesses: number;
  /** How long a command may take SIGTERM before it gets SIGKILL, in milliseconds. */
  graceMillis: number;
  /** `PATH` searched for `bwrap` and handed to the command; default the daemon's `PATH`. */
  path?: string | undefined;
}

/** How a sandboxed command ended. */
export interface SandboxedRun {
  /** The exit code of the command (bubblewrap passes it through); `null` when it was killed. */
  exitCode: number | null;
  /** The signal that ended the command: the one Repa sent on a stop, or the one it died of. */
  signal: 'SIGTERM' | 'SIGKILL' | null;
  /** Why Repa stopped it, if it did. */
  stoppedBy: 'timeout' | 'cancel' | 'dispose' | 'output' | null;
  /** Wall-clock duration in milliseconds. */
  durationMillis: number;
}

/** One command to run. */
export interface SandboxedCommand {
  /** The shell text, run by `bash -c` inside the sandbox. */
  command: string;
  /** Receives stdout and stderr as they come. */
  onData: (data: Buffer) => void;
  /** Wall-clock limit in milliseconds. */
  timeoutMillis: number;
  /** Aborts on cancel. */
  signal?: AbortSignal | undefined;
  /** Aborts on host disposal. */
  disposeSignal?: AbortSignal | undefined;
  /** The most bytes of output forwarded; past it the command is stopped (`stoppedBy: 'output'`). */
  maxOutputBytes?: number | undefined;
}

const DEBIAN_FIX =
  'Install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`), or turn commands off with `repa settings set tools.bash off`.';

/** How long the sandbox check waits for its probe before it kills it. */
const PROBE_TIMEOUT_MS = 10_000;

function unavailable(
  message: string,
  fix = DEBIAN_FIX,
  details?: { bwrap: string } | undefined,
): RepaError {
  return new RepaError('sandbox_unavailable', message, { fix, ...(details ? { details } : {}) });
}

/** The `bwrap` executable on `path`, or `sandbox_unavailable` (never a fall-back). */
async function findBwrap(path: string): Promise<string> {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, 'bwrap');
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  if (process.platform !== 'linux') {
    throw unavailable(
      `Commands run only inside a bubblewrap sandbox, which needs Linux (this is ${process.platform}); the command was not run.`,
      'Run Repa on Linux to use commands, or turn them off with `repa settings set tools.bash off`.',
    );
  }
  throw unavailable(
    'Commands run only inside a bubblewrap sandbox, and `bwrap` is not on the PATH; the command was not run.',
  );
}

function inside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}

/**
 * bubblewrap's arguments: the whole file system read-only, the home folder, `/run` and the hidden
 * folders empty and read-only (a write there fails, not lost), a private `/tmp`, the space
 * read-write (read-only when `spaceReadOnly`) with `.repa` empty and `readOnly` (its git folders)
 * read-only, no namespaces shared (no network), no capabilities, its own session, gone with its
 * parent.
 */
async function bwrapArguments(
  space: string,
  hidden: readonly string[],
  readOnly: readonly string[],
  spaceReadOnly: boolean,
): Promise<string[]> {
  const existing: string[] = [];
  for (const folder of new Set([homedir(), '/run', ...hidden])) {
    try {
      existing.push(await realpath(folder));
    } catch {
      // Absent: nothing to hide.
    }
  }
  const tmpfs = (folder: string) => ['--tmpfs', folder];
  // A hidden folder above the space is hidden first and the space bound over it; one inside the
  // space is hidden after the space is bound. Each is made read-only last, once every mount point
  // below it is made (the remount is not recursive: the space bound inside stays writable).
  const above = existing.filter((folder) => !inside(space, folder) || folder === space);
  const below = existing.filter((folder) => inside(space, folder) && folder !== space);
  const repa = join(space, '.repa');
  // A git folder inside a hidden folder stays hidden.
  const shown = readOnly.filter((path) => !below.some((folder) => inside(folder, path)));
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-all',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...tmpfs('/tmp'),
    ...above.filter((folder) => folder !== space).flatMap(tmpfs),
    spaceReadOnly ? '--ro-bind' : '--bind',
    space,
    space,
    ...below.flatMap(tmpfs),
    ...shown.flatMap((path) => ['--ro-bind', path, path]),
    ...tmpfs(repa),
    ...[...above, ...below, repa].flatMap((folder) =>
      folder === space ? [] : ['--remount-ro', folder],
    ),
    '--chdir',
    space,
  ];
}

/**
 * Checks that commands can run sandboxed here: `bwrap` on the PATH starts a sandbox, and as root a
 * pids cgroup can be made (root ignores the process limit otherwise). Resolves with the `bwrap`
 * used; throws `sandbox_unavailable`, whose `details.bwrap` names the one found when it failed, also
 * when the probe has not ended within `timeoutMs` (default 10 s; it is then killed).
 */
export async function checkSandbox(
  options: { path?: string | undefined; timeoutMs?: number | undefined } = {},
): Promise<{ bwrap: string }> {
  const bwrap = await findBwrap(options.path ?? process.env.PATH ?? '');
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  // Its own process group, so a timeout kills whatever it started too (and no child keeps the
  // stderr pipe, and this wait, open).
  const probe = spawn(
    bwrap,
    ['--die-with-parent', '--unshare-all', '--cap-drop', 'ALL', '--ro-bind', '/', '/', 'true'],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let stderr = '';
  probe.stderr?.on('data', (data: Buffer) => {
    stderr += data.toString('utf8');
  });
  let timedOut = false;
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (probe.pid !== undefined) process.kill(-probe.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      probe.stderr?.destroy();
      resolve(null);
    }, timeoutMs);
    const settle = (exitCode: number | null) => {
      clearTimeout(timer);
      resolve(exitCode);
    };
    probe.on('error', () => settle(-1));
    probe.on('close', (exitCode) => settle(exitCode));
  });
  if (timedOut) {
    throw unavailable(
      `bubblewrap (${bwrap}) did not start a sandbox within ${timeoutMs / 1000} s here.`,
      'Check that the bwrap on the PATH is bubblewrap and that it starts (`bwrap --ro-bind / / true`), or turn commands off with `repa settings set tools.bash off`.',
      { bwrap },
    );
  }
  if (code !== 0) {
    throw unavailable(
      `bubblewrap (${bwrap}) cannot start a sandbox here: ${stderr.trim() || `exit ${code}`}.`,
      'Allow unprivileged user namespaces (kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap), or turn commands off with `repa settings set tools.bash off`.',
      { bwrap },
    );
  }
  if (process.getuid?.() === 0) {
    const group = await createPidsGroup(1);
    if (!group) throw rootWithoutCgroup(bwrap);
    await removePidsGroup(group);
  }
  return { bwrap };
}

function rootWithoutCgroup(bwrap?: string): RepaError {
  return unavailable(
    'Running as root, a command can be held to a process limit only in a pids cgroup, and none can be made here; the command was not run.',
    'Run Repa as an ordinary user, or give it a writable pids cgroup (cgroup v1 pids hierarchy or v2 with the pids controller), or turn commands off with `repa settings set tools.bash off`.',
    bwrap === undefined ? undefined : { bwrap },
  );
}

/**
 * Runs one command in a bubblewrap sandbox (see {@link bwrapArguments}) with a process limit
 * (`ulimit -u` in its own user namespace; a pids cgroup as root). On timeout, cancel or disposal the
 * command's processes get SIGTERM, and after the grace period the sandbox is killed with SIGKILL.
 */
export async function runSandboxed(
  options: SandboxOptions,
  command: SandboxedCommand,
): Promise<SandboxedRun> {
  const path = options.path ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  const bwrap = await findBwrap(path);
  const space = await realpath(options.space);
  const args = await bwrapArguments(
    space,
    options.hidden,
    options.readOnly,
    options.spaceReadOnly ?? false,
  );
  // A hard limit already below ours is kept; an unlimited one that cannot be lowered stops the run.
  const script = `ulimit -u ${options.maxProcesses} 2>/dev/null || [ "$(ulimit -H -u)" != unlimited ] || exit 126\n${command.command}`;
  const group = process.getuid?.() === 0 ? await createPidsGroup(options.maxProcesses) : undefined;
  if (process.getuid?.() === 0 && !group) throw rootWithoutCgroup();
  const env = {
    PATH: path,
    HOME: '/tmp',
    TMPDIR: '/tmp',
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
  };
  const argv = [...args, '--', '/bin/bash', '-c', script];
  const started = performance.now();
  let child: ChildProcess;
  try {
    child = group
      ? // The cgroup is joined before bubblewrap starts, so every process of the command is in it.
        spawn('/bin/sh', ['-c', 'echo $$ > "$0" && exec "$@"', group.procs, bwrap, ...argv], {
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(bwrap, argv, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (group) await removePidsGroup(group);
    throw error;
  }
  const result: SandboxedRun = {
    exitCode: null,
    signal: null,
    stoppedBy: null,
    durationMillis: 0,
  };
  let stopping: Promise<void> | undefined;
  const stop = (reason: 'timeout' | 'cancel' | 'dispose' | 'output') => {
    if (stopping) return;
    result.stoppedBy = reason;
    result.signal = 'SIGTERM';
    stopping = (async () => {
      const pid = child.pid;
      if (pid === undefined) return;
      // SIGTERM to the command's own processes (not to bubblewrap, whose death kills them at once).
      for (const below of await descendants(pid)) {
        if (below.name !== 'bwrap') kill(below.pid, 'SIGTERM');
      }
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const waited = await Promise.race([
        exited.then(() => true),
        sleep(options.graceMillis).then(() => false),
      ]);
      if (waited || child.exitCode !== null) return;
      result.signal = 'SIGKILL';
      for (const below of await descendants(pid)) kill(below.pid, 'SIGKILL');
      kill(pid, 'SIGKILL');
      if (group) for (const member of await groupPids(group)) kill(member, 'SIGKILL');
    })();
  };
  const onCancel = () => stop('cancel');
  const onDispose = () => stop('dispose');
  const timer = setTimeout(() => stop('timeout'), command.timeoutMillis);
  command.signal?.addEventListener('abort', onCancel, { once: true });
  command.disposeSignal?.addEventListener('abort', onDispose, { once: true });
  if (command.signal?.aborted) onCancel();
  if (command.disposeSignal?.aborted) onDispose();
  const maxOutput = command.maxOutputBytes ?? Number.POSITIVE_INFINITY;
  let forwarded = 0;
  const onData = (data: Buffer) => {
    if (forwarded >= maxOutput) return;
    const room = maxOutput - forwarded;
    forwarded += Math.min(data.length, room);
    command.onData(data.length > room ? data.subarray(0, room) : data);
    if (forwarded >= maxOutput) stop('output');
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  try {
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
      (resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code, killedBy) => resolve([code, killedBy]));
      },
    );
    await stopping;
    result.exitCode = exitCode;
    if (result.signal === null && (signal === 'SIGTERM' || signal === 'SIGKILL')) {
      result.signal = signal;
    }
    result.durationMillis = Math.round(performance.now() - started);
    return result;
  } catch (error) {
    throw unavailable(
      `bubblewrap could not be started: ${error instanceof Error ? error.message : String(error)}.`,
    );
  } finally {
    clearTimeout(timer);
    command.signal?.removeEventListener('abort', onCancel);
    command.disposeSignal?.removeEventListener('abort', onDispose);
    if (group) await removePidsGroup(group);
  }
}
