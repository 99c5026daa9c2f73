import { homedir as osHomedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Inputs of {@link resolveAppDirectory}; every field is optional. */
export interface ResolveAppDirectoryOptions {
  /** `ApplicationOptions.appDirectory`: wins over everything else. */
  appDirectory?: string | undefined;
  /** An explicitly given agent directory: used when no `appDirectory` is given. */
  agentDir?: string | undefined;
  /** Environment to read `XDG_CONFIG_HOME` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The user's home directory. Default `os.homedir()`. */
  homedir?: string | undefined;
}

function given(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/**
 * Repa's application config directory (spec R15), first that applies: `appDirectory`; an explicit
 * `agentDir`; `$XDG_CONFIG_HOME/repa`; `~/.config/repa`. Empty strings count as not given, and a
 * relative `XDG_CONFIG_HOME` is ignored as the XDG Base Directory spec requires.
 */
export function resolveAppDirectory(options: ResolveAppDirectoryOptions = {}): string {
  if (given(options.appDirectory)) return resolve(options.appDirectory);
  if (given(options.agentDir)) return resolve(options.agentDir);
  const xdgConfigHome = (options.env ?? process.env).XDG_CONFIG_HOME;
  if (given(xdgConfigHome) && isAbsolute(xdgConfigHome)) return join(xdgConfigHome, 'repa');
  return join(options.homedir ?? osHomedir(), '.config', 'repa');
}

/** Where the daemon of an app directory keeps its socket, pid, log and web state. */
export interface DaemonPaths {
  /** `<appDirectory>/run`. */
  runDirectory: string;
  /** `<appDirectory>/run/daemon.sock`. */
  socketPath: string;
  /** `<appDirectory>/run/daemon.pid`: the serving daemon's pid. */
  pidPath: string;
  /** `<appDirectory>/run/daemon.log`: stdout and stderr of daemons started by `repa`. */
  logPath: string;
  /** `<appDirectory>/run/web.json`: the web listener's port and secret, while the page is served. */
  webStatePath: string;
}

/** The daemon files of an (absolute) app directory; daemon and clients both use this. */
export function daemonPaths(appDirectory: string): DaemonPaths {
  const runDirectory = join(appDirectory, 'run');
  return {
    runDirectory,
    socketPath: join(runDirectory, 'daemon.sock'),
    pidPath: join(runDirectory, 'daemon.pid'),
    logPath: join(runDirectory, 'daemon.log'),
    webStatePath: join(runDirectory, 'web.json'),
  };
}
