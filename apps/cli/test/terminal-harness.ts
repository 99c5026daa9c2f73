import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type CliSandbox, cliMain, nodeBinary, sandboxArgs } from '@repa/test-kit';

/** A `repa` running in a real pseudo-terminal: a detached tmux session of its own server. */
export interface Terminal {
  /** The screen as text; with `escapes`, with its colour codes. */
  screen(escapes?: boolean): string;
  /** Resolves with the screen once it matches `pattern`; rejects with the screen after 90 s. */
  waitFor(pattern: RegExp, escapes?: boolean): Promise<string>;
  /** Types keys, as tmux `send-keys` names them (`'n'`, `'Enter'`, `'C-c'`). */
  keys(...keys: string[]): void;
  /** Ends the session and its server. */
  close(): void;
}

let count = 0;

/**
 * Starts `repa …args` (with the sandbox's global options) in a `columns`×`rows` terminal, in `cwd`,
 * with the sandbox's environment plus `env`. The command stays on screen after it ends.
 */
export function openTerminal(
  sandbox: CliSandbox,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; columns?: number; rows?: number } = {},
): Terminal {
  const found = spawnSync('tmux', ['-V']);
  if (found.error) throw new Error('These tests need tmux: apt-get install -y tmux');
  count += 1;
  const socket = `repa-test-${process.pid}-${count}`;
  const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  const script = join(sandbox.root, `${socket}.sh`);
  writeFileSync(
    script,
    // The shell ignores Ctrl-C (a caught signal is reset to the default in `repa`).
    `trap : INT\ncd ${quote(options.cwd ?? sandbox.space)}\n${[nodeBinary, cliMain, ...sandboxArgs(sandbox), ...args].map(quote).join(' ')}\necho "[exit $?]"\nsleep 600\n`,
  );
  const env = { ...sandbox.env, TERM: 'xterm-256color', ...options.env };
  const tmux = (...tmuxArgs: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...tmuxArgs], {
      env,
      encoding: 'utf8',
    });
  tmux(
    'new-session',
    '-d',
    '-x',
    String(options.columns ?? 100),
    '-y',
    String(options.rows ?? 30),
    'sh',
    script,
  );
  const screen = (escapes = false) =>
    tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', '0')
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trimEnd();
  return {
    screen,
    async waitFor(pattern, escapes = false) {
      // Not a timing check: the limit only turns a hang into a failure that shows the screen.
      const giveUp = Date.now() + 90_000;
      for (;;) {
        const shown = screen(escapes);
        if (pattern.test(shown)) return shown;
        if (Date.now() > giveUp) throw new Error(`The screen never matched ${pattern}:\n${shown}`);
        await delay(50);
      }
    },
    keys(...keys) {
      tmux('send-keys', '-t', '0', ...keys);
    },
    close() {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
}
