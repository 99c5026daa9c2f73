import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { type RepaClient, RepaError, type SessionInfo } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { startDaemon } from './daemon-control.js';
import { resolveSession } from './resolve-id.js';
import { usageError } from './usage-error.js';

/** What every command gets: the global options, the streams and a lazily connected client. */
export interface CliContext {
  /** The CLI's version. */
  version: string;
  /** The app directory (`--app-dir`, else spec R15). */
  appDirectory: string;
  /** `--agent-dir`, when given. */
  agentDir: string | undefined;
  /** `--json`: data on stdout as JSON. */
  json: boolean;
  /** The working directory (the default space). */
  cwd: string;
  /** Standard input. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Standard output. */
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Standard error. */
  stderr: NodeJS.WritableStream;
  /** The daemon client; the daemon is started in the background when none runs. */
  client(): Promise<RepaClient>;
  /** The model of the daemon, as its `initialize` reports it (undefined when unknown). */
  model(): Promise<string | undefined>;
  /** Closes the client, when one was opened. */
  close(): Promise<void>;
}

/** Options of {@link createCliContext}. */
export interface CliContextOptions {
  version: string;
  appDirectory: string;
  agentDir: string | undefined;
  json: boolean;
  cwd: string;
  stdin: CliContext['stdin'];
  stdout: CliContext['stdout'];
  stderr: CliContext['stderr'];
}

/** The context of one `repa` invocation. */
export function createCliContext(options: CliContextOptions): CliContext {
  let connecting: Promise<{ client: RepaClient; model: string | undefined }> | undefined;
  const connect = () => {
    connecting ??= (async () => {
      const { status, started } = await startDaemon({
        appDirectory: options.appDirectory,
        agentDir: options.agentDir,
      });
      if (started && !options.json) {
        options.stderr.write(
          `repa: started the daemon for ${options.appDirectory} (pid ${status.pid ?? '?'}, log ${daemonPaths(options.appDirectory).logPath})\n`,
        );
      }
      const client = createRepaClient(
        { socketPath: status.socketPath },
        { client: { name: 'repa', version: options.version } },
      );
      await client.connect();
      return { client, model: status.model };
    })();
    return connecting;
  };
  return {
    ...options,
    client: async () => (await connect()).client,
    model: async () => (await connect()).model,
    async close() {
      if (!connecting) return;
      const opened = await connecting.catch(() => undefined);
      await opened?.client.close();
    },
  };
}

/**
 * The space root a command works in: `--space`, else the working directory, made absolute (a
 * relative `--space` against the directory the command was typed in). A file is refused.
 */
export function spaceOf(context: CliContext, space: string | undefined): string {
  const root = resolve(context.cwd, space ?? '.');
  let isFile = false;
  try {
    isFile = !statSync(root).isDirectory();
  } catch {
    // A missing folder is the daemon's to report.
  }
  if (isFile) {
    throw usageError(
      `${root} is a file, not a folder.`,
      `Pass the folder that holds it: --space ${dirname(root)}`,
    );
  }
  return root;
}

/**
 * Before a run makes `space` a space (its `.repa/` folder): asks on a terminal when the space is
 * the working directory, else says so on stderr. Declining ends the command with `cancelled`.
 */
export async function confirmSpace(
  context: CliContext,
  space: string,
  explicit: boolean,
): Promise<void> {
  try {
    if (statSync(join(space, '.repa')).isDirectory()) return;
  } catch {
    // Not a space yet.
  }
  const what = `${space} is not a Repa space yet`;
  const how = `Repa keeps its sessions and settings in ${join(space, '.repa')}`;
  const terminal = context.stdin.isTTY === true && context.stdout.isTTY === true;
  if (!terminal || explicit || context.json) {
    context.stderr.write(`repa: ${what}; making it one (${how}).
`);
    return;
  }
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  try {
    const answer = await prompt.question(`${what}. Make it one? ${how}. [Y/n] `);
    if (/^\s*(y|yes)?\s*$/i.test(answer)) return;
  } finally {
    prompt.close();
  }
  throw new RepaError('cancelled', `${space} was not made a space.`, {
    fix: 'Run repa in the folder of your documents, or name it with --space DIR.',
  });
}

/** The most recently changed session of a space, or undefined when it has none. */
export async function latestSession(
  client: RepaClient,
  space: string,
): Promise<SessionInfo | undefined> {
  const { sessions } = await client.request('session.list', { space });
  return [...sessions].sort((a, b) =>
    (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt),
  )[0];
}

/** The session `--session` names (an id or a unique prefix), else the most recent one, if any. */
export async function sessionOrLatest(
  client: RepaClient,
  space: string,
  sessionId: string | undefined,
): Promise<string | undefined> {
  if (sessionId) return (await resolveSession(client, space, sessionId)).sessionId;
  return (await latestSession(client, space))?.sessionId;
}

/**
 * The session a command works in: `--session` (an id or a unique prefix of one), else with
 * `latest` the space's most recent session, else a new one. Returns whether it was created.
 */
export async function sessionOf(
  client: RepaClient,
  space: string,
  sessionId: string | undefined,
  latest = true,
): Promise<{ sessionId: string; created: boolean }> {
  if (sessionId) {
    return {
      sessionId: (await resolveSession(client, space, sessionId)).sessionId,
      created: false,
    };
  }
  const recent = latest ? await latestSession(client, space) : undefined;
  if (recent) return { sessionId: recent.sessionId, created: false };
  const { session } = await client.request('session.create', { space });
  return { sessionId: session.sessionId, created: true };
}

/**
 * Before a command destroys something: asks `question` on a terminal (`[y/N]`, Enter is no);
 * `yes` (`--yes`), `--json` or no terminal go on without asking. Declining ends the command with
 * `cancelled`.
 */
export async function confirmDestructive(
  context: CliContext,
  question: string,
  yes: boolean,
): Promise<void> {
  const terminal = context.stdin.isTTY === true && context.stdout.isTTY === true;
  if (yes || context.json || !terminal) return;
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    if (/^\s*(y|yes)\s*$/i.test(answer)) return;
  } finally {
    prompt.close();
  }
  throw new RepaError('cancelled', 'Nothing was changed.', {
    fix: 'Answer y to go on, or pass --yes to skip the question.',
  });
}
