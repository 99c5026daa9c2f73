import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The workspace's root (the folder of `pnpm-workspace.yaml`), found from this file whether it runs
 * from `src/` or as built in `dist/`. The kit finds the CLI by its place in the workspace: depending
 * on `@repa/cli` would make a package circle (the CLI needs the daemon, which needs the web app).
 */
function workspaceRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('@repa/test-kit runs inside the Repa workspace only.');
    dir = parent;
  }
  return dir;
}

/** Node 22 of the workspace (the machine's `node` may be older). */
export const nodeBinary = join(workspaceRoot(), 'node_modules', '.bin', 'node');
/** The built CLI: the tests run what users run. */
export const cliMain = join(workspaceRoot(), 'apps', 'cli', 'dist', 'main.js');

/** Temporary directories of one test file: app dir, agent dir, home and a space. */
export interface CliSandbox {
  root: string;
  appDir: string;
  agentDir: string;
  home: string;
  space: string;
  env: NodeJS.ProcessEnv;
}

/** Makes a sandbox under a fresh temp dir; the space holds `notes/a.md` and `notes/plan.md`. */
export function createSandbox(): CliSandbox {
  if (!existsSync(cliMain))
    throw new Error('Build the CLI first: turbo run build --filter=@repa/cli...');
  const root = mkdtempSync(join(tmpdir(), 'repa-cli-'));
  const sandbox = {
    root,
    appDir: join(root, 'app'),
    agentDir: join(root, 'agent'),
    home: join(root, 'home'),
    space: join(root, 'space'),
  };
  for (const dir of [sandbox.home, sandbox.agentDir]) mkdirSync(dir, { recursive: true });
  writeFiles(sandbox.space, {
    'notes/a.md':
      '# Tides\n\nThe tide turns every six hours.\nSpring tides follow the full moon.\n',
    'notes/plan.md': '# Plan\n\n- Read the chapter weekly.\n',
  });
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // No real credentials, no user configuration: every run is on the offline responder.
    if (/_API_KEY$|_TOKEN$|^XDG_|^PI_|^VITEST|^NODE_OPTIONS$/.test(name)) continue;
    env[name] = value;
  }
  // One compile cache for every test file's `repa` and daemon (outside the sandbox, which goes).
  const compileCache = join(tmpdir(), 'repa-test-compile-cache');
  Object.assign(env, {
    HOME: sandbox.home,
    TMPDIR: root,
    PI_OFFLINE: '1',
    NODE_COMPILE_CACHE: compileCache,
  });
  return { ...sandbox, env };
}

/** Writes files (relative path → text) under `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A finished `repa` invocation. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How to start `repa`: working directory (default the space), sandbox options, extra env. */
export interface RepaOptions {
  cwd?: string;
  /** False leaves out `--app-dir` and `--agent-dir`. */
  global?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The global options that keep a `repa` invocation inside the sandbox. */
export function sandboxArgs(sandbox: CliSandbox): string[] {
  return ['--app-dir', sandbox.appDir, '--agent-dir', sandbox.agentDir];
}

/** Starts `repa …` in the sandbox (cwd: the space) with pipes, no TTY. */
export function spawnRepa(
  sandbox: CliSandbox,
  args: readonly string[],
  options: RepaOptions = {},
): CliProcess {
  const child = spawn(
    nodeBinary,
    [cliMain, ...(options.global === false ? [] : sandboxArgs(sandbox)), ...args],
    { cwd: options.cwd ?? sandbox.space, env: { ...sandbox.env, ...options.env }, stdio: 'pipe' },
  );
  return new CliProcess(child);
}

/** Runs `repa …` to its end; `input` is written to stdin, then stdin is closed. */
export async function repa(
  sandbox: CliSandbox,
  args: readonly string[],
  options: RepaOptions & { input?: string } = {},
): Promise<CliResult> {
  const process = spawnRepa(sandbox, args, options);
  process.child.stdin.end(options.input ?? '');
  return process.exited;
}

/** Runs `repa … --json` and parses its stdout. */
export async function repaJson<T = Record<string, unknown>>(
  sandbox: CliSandbox,
  args: readonly string[],
  options: RepaOptions = {},
): Promise<{ code: number | null; json: T; stderr: string }> {
  const result = await repa(sandbox, [...args, '--json'], options);
  try {
    return { code: result.code, json: JSON.parse(result.stdout) as T, stderr: result.stderr };
  } catch {
    throw new Error(`Not JSON (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
  }
}

/** Parses JSON-lines output. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A running `repa` child whose output can be waited on. */
export class CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<CliResult>;
  readonly #waiters = new Set<() => void>();

  constructor(child: ChildProcessWithoutNullStreams) {
    this.child = child;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.stdout += chunk;
      for (const waiter of this.#waiters) waiter();
    });
    child.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      child.once('close', (code) => {
        for (const waiter of this.#waiters) waiter();
        resolve({ code, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  /** Resolves once stdout (from `from` on) matches `pattern`; rejects if the process ends first. */
  waitFor(pattern: RegExp, from = 0): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this.stdout.slice(from).match(pattern);
        if (match) {
          this.#waiters.delete(check);
          resolve(match);
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          this.#waiters.delete(check);
          reject(
            new Error(`repa ended before ${pattern}:\n${this.stdout}\n--- stderr\n${this.stderr}`),
          );
        }
      };
      this.#waiters.add(check);
      check();
    });
  }
}
