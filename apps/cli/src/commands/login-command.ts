import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { LoginProgress } from '@repa/protocol';
import type { Command } from '../command.js';
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

const login: Command = {
  words: ['login'],
  summary: "sign in to a model provider through Pi's own login (API key or OAuth)",
  usage: 'login PROVIDER [--oauth]',
  help: `Signs in to a model provider through Pi's own login, run by the daemon: Pi asks for an API
key (default) or runs its OAuth sign-in (--oauth), and stores the credential in its auth.json in
the daemon's Pi agent directory. Each step is printed: the address to open, the code to enter, and
each question, whose answer is read as one line from standard input (so a key can be piped in:
printenv KEY | repa login anthropic). Repa itself keeps no credential.

Options:
  --oauth   Pi's OAuth sign-in instead of an API key

Prints the connection now configured, e.g. anthropic:auth-file (see repa models).
With --json: one JSON object per step ({"kind", "message", …}), then {"connection"}.`,
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
      const result = await client.request('login.start', {
        provider,
        type: values.oauth === true ? 'oauth' : 'api_key',
        loginId,
      });
      if (context.json) writeJson(context.stdout, result);
      else context.stdout.write(`Signed in: connection ${result.connection}\n`);
      return 0;
    } finally {
      stop();
      await lines.return?.();
      reader.close();
    }
  },
};

/** `repa login`. */
export const loginCommands: Command[] = [login];
