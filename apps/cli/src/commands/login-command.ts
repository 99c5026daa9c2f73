import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { LoginProgress, ModelDecision } from '@repa/protocol';
import { type Command, defineCommand } from '../command.js';
import { currentSpace } from '../current-space.js';
import { describeRunModel } from '../describe-model.js';
import { writeJson } from '../format-table.js';

/** The text shown for one login step (never an answer). */
function lineOf(progress: LoginProgress): string {
  if (progress.kind === 'auth_url') return `Open ${progress.url} — ${progress.message}`;
  if (progress.kind === 'prompt') {
    const choices = (progress.options ?? []).map((option) => `  ${option.id}: ${option.label}`);
    return [
      ...choices,
      `${progress.message}${progress.promptType === 'secret' ? ' (one line, not stored by Repa)' : ''}:`,
    ].join('\n');
  }
  return progress.message;
}

const login = defineCommand({
  words: ['login'],
  summary: "sign in to a model provider through Pi's own login (API key or OAuth)",
  usage: 'login PROVIDER [--oauth]',
  help: `Signs in to a model provider through Pi's own login, run by the daemon: Pi asks for an API
key (default) or runs its OAuth sign-in (--oauth), and stores the credential in its auth.json in
the daemon's Pi agent directory. Each step is printed: the address to open, the code to enter, and
each question, whose answer is read as one line from standard input (so a key can be piped in:
printenv KEY | repa login anthropic). Repa itself keeps no credential. The next run uses the key at
once (no restart). An empty key is refused and nothing is stored (exit 1); so is a login cancelled
(Ctrl-C) or left unanswered for 10 minutes. PROVIDER is one Pi knows (repa models --all), or one
declared in Pi's models.json.

Options:
  --oauth   Pi's OAuth sign-in instead of an API key

Prints the connection now configured, e.g. anthropic:auth-file (see repa models), and the model the
next run uses (in this space, when the current directory is one).
With --json: one JSON object per step ({"kind", "message", …}), then {"connection", "next"}.`,
  options: { oauth: { type: 'boolean' } },
  positionals: [1, 1],
  async run(context, args, values) {
    const provider = args[0] as string;
    const client = await context.client();
    const loginId = randomUUID();
    // On a terminal, what is typed for a `secret` prompt is not echoed.
    let muted = false;
    const echo = new Writable({
      write(chunk, _encoding, done) {
        if (!muted) context.stdout.write(chunk);
        done();
      },
    });
    const terminal = context.stdin.isTTY === true;
    const reader = createInterface({ input: context.stdin, output: echo, terminal });
    const lines = reader[Symbol.asyncIterator]();
    const stop = client.on('login.progress', (progress) => {
      if (progress.loginId !== loginId) return;
      if (context.json) writeJson(context.stdout, progress);
      else context.stdout.write(`${lineOf(progress)}\n`);
      if (progress.kind !== 'prompt' || progress.promptId === undefined) return;
      const promptId = progress.promptId;
      muted = terminal && progress.promptType === 'secret';
      void lines
        .next()
        .then((line) => {
          if (muted) context.stdout.write('\n');
          muted = false;
          return client.request('login.answer', {
            loginId,
            promptId,
            value: line.done ? '' : line.value.trim(),
          });
        })
        .catch(() => undefined);
    });
    try {
      const space = currentSpace(context);
      const result = await client.request('login.start', {
        provider,
        type: values.oauth === true ? 'oauth' : 'api_key',
        loginId,
        ...(space ? { space } : {}),
      });
      if (context.json) writeJson(context.stdout, result);
      else {
        context.stdout.write(`Signed in: connection ${result.connection}\n`);
        if (values.oauth !== true) {
          // Pi has no check of a key short of a model call: said plainly, not implied.
          context.stdout.write(
            'The key was stored, not checked with the provider (a check would be a model call); the next request checks it, and a wrong key fails it with auth_failed naming this connection.\n',
          );
        }
        if (result.environmentVariable) {
          context.stdout.write(
            `${result.environmentVariable} is also set in the daemon's environment (read when it started); the stored key takes precedence over it now.\n`,
          );
        }
        if (result.next) context.stdout.write(nextLine(result.next, space));
      }
      return 0;
    } finally {
      stop();
      await lines.return?.();
      reader.close();
    }
  },
});

/** The line naming the model the next run uses now (no restart needed). */
function nextLine(next: ModelDecision, space: string | undefined): string {
  return `The next run${space ? ' in this space' : ''} uses ${describeRunModel(next)}; no restart needed.\n`;
}

const logout = defineCommand({
  words: ['logout'],
  summary: "remove a provider's stored credential through Pi",
  usage: 'logout PROVIDER',
  help: `Removes the credential Pi stores for PROVIDER in its auth.json (through Pi, in the daemon's Pi
agent directory); the next run no longer uses it. A key of the daemon's environment (read when it
started) or of Pi's models.json is not touched: the command says when the provider still has one.

Prints what was removed and the model the next run uses (in this space, when the current directory
is one). With --json: {"removed", "connection"?, "next"}.`,
  options: {},
  positionals: [1, 1],
  async run(context, args) {
    const provider = args[0] as string;
    const client = await context.client();
    const space = currentSpace(context);
    const result = await client.request('login.logout', {
      provider,
      ...(space ? { space } : {}),
    });
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    context.stdout.write(
      result.removed
        ? `Signed out: Pi's stored credential for ${provider} was removed.\n`
        : `Pi had no stored credential for ${provider}; nothing was removed.\n`,
    );
    if (result.connection) {
      context.stdout.write(
        `${provider} still has credentials: connection ${result.connection}${result.connection.endsWith(':environment') ? " (the daemon's environment, read when it started)" : ''}.\n`,
      );
    }
    if (result.next) context.stdout.write(nextLine(result.next, space));
    return 0;
  },
});

/** `repa login`, `repa logout`. */
export const loginCommands: Command[] = [login, logout];
