import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The name the embedded offline model goes by (`OFFLINE_MODEL_ID` of `@repa/host`). */
export const OFFLINE_MODEL = 'repa-offline';

/**
 * Repa's application directory (spec R15), first that applies: `--app-dir`; an explicit
 * `--agent-dir`; `$XDG_CONFIG_HOME/repa`; `~/.config/repa`.
 * Contract: the same answer as `resolveAppDirectory` of `@repa/settings` (a test compares them). It
 * is repeated here because importing `@repa/application` loads Pi (about a second), which every
 * `repa` command would otherwise pay before it talks to the daemon.
 */
export function appDirectoryOf(
  options: { appDirectory?: string | undefined; agentDir?: string | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (options.appDirectory) return resolve(options.appDirectory);
  if (options.agentDir) return resolve(options.agentDir);
  const xdgConfigHome = env.XDG_CONFIG_HOME;
  if (xdgConfigHome && isAbsolute(xdgConfigHome)) return join(xdgConfigHome, 'repa');
  return join(homedir(), '.config', 'repa');
}

/** How a model is named in every output; the offline responder says what it is. */
export function describeModel(label: string | undefined): string {
  if (label === undefined) return 'unknown (the daemon was not started by repa; see its output)';
  return label === OFFLINE_MODEL ? `${OFFLINE_MODEL} (local responder, no language model)` : label;
}
