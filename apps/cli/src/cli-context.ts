import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { type RepaClient, RepaError } from '@repa/protocol';
import { daemonPaths } from '@repa/protocol/node';
import { connectDaemon } from './daemon-control.js';
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
  let connecting: Promise<{ client: RepaClient }> | undefined;
  const connect = () => {
    connecting ??= (async () => {
      const { status, started, client } = await connectDaemon({
        appDirectory: options.appDirectory,
        agentDir: options.agentDir,
        client: { name: 'repa', version: options.version },
      });
      if (started && !options.json) {
        options.stderr.write(
          `repa: started the daemon for ${options.appDirectory} (pid ${status.pid ?? '?'}, log ${daemonPaths(options.appDirectory).logPath})\n`,
        );
      }
      return { client };
    })();
    return connecting;
  };
  return {
    ...options,
    client: async () => (await connect()).client,
    async close() {
      if (!connecting) return;
      const opened = await connecting.catch(() => undefined);
      await opened?.client.close();
    },
  };
}

/** Whether `folder` holds a space's own `.repa/` folder. */
function isSpace(folder: string): boolean {
  try {
    return lstatSync(join(folder, '.repa')).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether `folder` is the root of the file system or the home folder: never the space of a folder
 * below it by itself (design R17; the daemon makes neither a space unless it is named).
 */
export function isHomeFolder(folder: string): boolean {
  if (parse(folder).root === folder) return true;
  try {
    return folder === realpathSync(homedir());
  } catch {
    return folder === homedir();
  }
}

/** The nearest folder from `folder` up that holds `.repa/`, as git finds its repository. */
function nearestSpace(folder: string): string | undefined {
  for (let current = resolve(folder); ; current = dirname(current)) {
    if (isSpace(current)) return current;
    if (dirname(current) === current) return undefined;
  }
}

/**
 * The space `folder` is in: the nearest folder from it up that is a space (holds `.repa/`), but
 * never the home folder or the root of the file system above it ({@link isHomeFolder}).
 */
export function enclosingSpace(folder: string): string | undefined {
  const nearest = nearestSpace(folder);
  return nearest !== undefined && nearest !== resolve(folder) && isHomeFolder(nearest)
    ? undefined
    : nearest;
}

/**
 * The space root a command works in: `--space` (made absolute against the directory the command
 * was typed in), else the space the working directory is in ({@link enclosingSpace}), else the
 * working directory. A file is refused, and so is a working directory whose nearest space is the
 * home folder above it (`space_unsafe`: the learner names the space they mean).
 */
export function spaceOf(context: CliContext, space: string | undefined): string {
  const cwd = resolve(context.cwd);
  if (space === undefined && enclosingSpace(cwd) !== nearestSpace(cwd)) {
    const home = nearestSpace(cwd) ?? '/';
    const what = parse(home).root === home ? 'the root of the file system' : 'your home folder';
    throw new RepaError(
      'space_unsafe',
      `${cwd} has no .repa/ of its own, and the space above it is ${what} (${home}), which Repa never takes for a folder below it.`,
      {
        fix: `Name the space you mean: --space ${cwd} (this folder, a space of its own) or --space ${home}.`,
        details: { space: cwd, above: home },
      },
    );
  }
  const root = space === undefined ? (enclosingSpace(cwd) ?? cwd) : resolve(context.cwd, space);
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
 * The space a listing that also answers without one is scoped to: as {@link spaceOf}, but none
 * when the working directory would give the home folder or the root of the file system (spaces
 * only when named, design R17): the listing then answers at the application level.
 */
export function listingSpace(context: CliContext, space: string | undefined): string | undefined {
  if (space !== undefined) return spaceOf(context, space);
  const cwd = resolve(context.cwd);
  const root = enclosingSpace(cwd) ?? cwd;
  return enclosingSpace(cwd) !== nearestSpace(cwd) || isHomeFolder(root) ? undefined : root;
}

/**
 * The space a command that writes there works in ({@link spaceOf}); with `--space`, the daemon is
 * told first that the learner named it (design R17: the home folder, the root of the file system
 * and a folder holding Pi's or Repa's configuration become a space only so).
 */
export async function writableSpace(
  context: CliContext,
  client: RepaClient,
  space: string | undefined,
): Promise<string> {
  const root = spaceOf(context, space);
  if (space !== undefined) await client.request('space.open', { root, named: true });
  return root;
}

/**
 * Before a conversation in `space` (`explicit`: named with --space; `making`: a new session may
 * make it a space). Named, the question of a space inside a space comes first, then the daemon is
 * told the learner named it; else, when the folder is no space yet, the daemon's answer to a query
 * comes first (a folder it never makes a space by itself is refused there, design R17), then the
 * question.
 */
export async function claimSpace(
  context: CliContext,
  client: RepaClient,
  space: string,
  explicit: boolean,
  making: boolean,
): Promise<void> {
  if (explicit) {
    if (making) await confirmSpace(context, space, true);
    await client.request('space.open', { root: space, named: true });
    return;
  }
  if (!making || isSpace(space)) return;
  await client.request('session.list', { space });
  await confirmSpace(context, space, false);
}

/**
 * Before a run makes `space` a space (its `.repa/` folder): asks on a terminal when the space is
 * the working directory, else says so on stderr. Declining ends the command with `cancelled`.
 */
async function confirmSpace(context: CliContext, space: string, explicit: boolean): Promise<void> {
  // A missing folder is the daemon's to report, in one error: nothing is made of it.
  if (isSpace(space) || !existsSync(space)) return;
  const what = `${space} is not a Repa space yet`;
  const how = `Repa keeps its sessions and settings in ${join(space, '.repa')}`;
  const terminal = context.stdin.isTTY === true && context.stdout.isTTY === true;
  const outer = enclosingSpace(dirname(space));
  if (outer !== undefined) {
    // A space inside a space: its own sessions, settings and learning context, apart from the outer.
    const nested = `${space} is inside the space ${outer}`;
    if (!terminal || context.json) {
      context.stderr.write(`repa: ${nested}; making it a space of its own (${how}).\n`);
      return;
    }
    await askOrCancel(
      context,
      `${nested}. Make it a space of its own, apart from ${outer}? [y/N] `,
      /^\s*(y|yes)\s*$/i,
      `Run repa in ${outer}, or name it with --space ${outer}.`,
    );
    return;
  }
  if (!terminal || explicit || context.json) {
    context.stderr.write(`repa: ${what}; making it one (${how}).
`);
    return;
  }
  await askOrCancel(
    context,
    `${what}. Make it one? ${how}. [Y/n] `,
    /^\s*(y|yes)?\s*$/i,
    'Run repa in the folder of your documents, or name it with --space DIR.',
    `${space} was not made a space.`,
  );
}

/** Asks `question` on the terminal; an answer `yes` does not match ends with `cancelled`. */
async function askOrCancel(
  context: CliContext,
  question: string,
  yes: RegExp,
  fix: string,
  message = 'Nothing was changed.',
): Promise<void> {
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  try {
    if (yes.test(await prompt.question(question))) return;
  } finally {
    prompt.close();
  }
  throw new RepaError('cancelled', message, { fix });
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
  await askOrCancel(
    context,
    `${question} [y/N] `,
    /^\s*(y|yes)\s*$/i,
    'Answer y to go on, or pass --yes to skip the question.',
  );
}

/**
 * A path of the space as the learner typed it, made space-root-relative (`/`-separated): from the
 * space's root when something is there, else from the folder they are in when that is inside the
 * space and something is there (`notes.md` typed in `week1/` is `week1/notes.md`), else from the
 * root (the daemon says what is missing). An absolute path inside the space is made relative; a
 * `repa:` identity, and a path outside the space, stay as typed. Every option taking a space path
 * goes through it.
 */
export function spacePathOf(context: CliContext, space: string, typed: string): string {
  if (typed.startsWith('repa:')) return typed;
  const inside = (absolute: string) => {
    const path = relative(space, absolute);
    if (path === '') return '.';
    return path.startsWith('..') || isAbsolute(path) ? undefined : path.split(sep).join('/');
  };
  if (isAbsolute(typed)) return inside(typed) ?? typed;
  const fromRoot = inside(resolve(space, typed));
  if (fromRoot !== undefined && existsSync(resolve(space, typed))) return fromRoot;
  const here = resolve(context.cwd, typed);
  const fromHere = inside(here);
  if (fromHere !== undefined && existsSync(here)) return fromHere;
  return fromRoot ?? typed;
}

/** A passage typed as `FILE[:LINES|#pPAGE]`: its file part read as {@link spacePathOf} reads a path. */
export function passagePathOf(context: CliContext, space: string, typed: string): string {
  const [, file = '', place = ''] = /^(.*?)((?:#p\d+)?(?::\d+(?:-\d+)?)?)$/u.exec(typed) ?? [];
  return `${spacePathOf(context, space, file)}${place}`;
}
