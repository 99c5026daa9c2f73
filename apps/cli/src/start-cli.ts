import { readFileSync } from 'node:fs';
import { runCli } from './run-cli.js';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

// A reader that went away (repa … | head) ends the output, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// Pi downloads helper binaries when it cannot find them; Repa's offline paths never need them.
process.env.PI_OFFLINE ??= '1';

// `npm run repa -- …` runs in the repository root; INIT_CWD is where the user typed it.
const viaNpm = process.env.npm_lifecycle_event === 'repa' && process.env.INIT_CWD;

const code = await runCli(process.argv.slice(2), {
  version,
  cwd: viaNpm ? (process.env.INIT_CWD as string) : process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
process.exitCode = code;
// Lingering handles (stdin, timers of a closed client) must not keep `repa` alive.
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
process.exit(code);
