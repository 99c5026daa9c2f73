import { spawn } from 'node:child_process';
import { daemonPaths, openWebApp } from '@repa/protocol/node';
import { enclosingSpace, writableSpace } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { writeJson } from '../format-table.js';
import { usageError } from '../usage-error.js';

/** Opens `url` in the user's browser with the platform's opener; false when none could start. */
function openInBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

const web = defineCommand({
  words: ['web'],
  summary: "open Repa's learner interface in the browser",
  usage: 'web [--space DIR] [--port N] [--no-open]',
  help: `Asks the daemon (started when none runs) to serve the web app on 127.0.0.1 and opens it in
your browser: spaces, sessions, the conversation, the learning context, settings and runs. The
printed URL carries a secret: opening it once sets a cookie, and every other request without it is
refused. The daemon keeps serving the app after repa daemon restart and after a crash (same port,
same secret, kept in <app-dir>/run/web.json), so an open page reconnects by itself. repa daemon stop
(or the daemon's idle exit) ends the page: run repa web again for a new address and secret.

Options:
  --space DIR      open this space in the page (default: the space the working directory is in,
                   else the page offers the spaces the daemon has opened)
  --port N         the port on 127.0.0.1 (default: any free port, or the one already served)
  --no-open        print the URL without opening a browser`,
  options: {
    space: { type: 'string' },
    port: { type: 'string' },
    'no-open': { type: 'boolean' },
  },
  positionals: [0, 0],
  async run(context, _args, values) {
    let port = 0;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) {
        throw usageError(`Not a port: ${values.port}.`, 'Pass a port from 1 to 65535.');
      }
    }
    const client = await context.client(); // Starts the daemon when none runs.
    const opened = await openWebApp({
      socketPath: daemonPaths(context.appDirectory).socketPath,
      port,
      client: { name: 'repa', version: context.version },
    });
    // A space named here may be one the daemon makes a space only when named (design R17).
    const space =
      values.space !== undefined
        ? await writableSpace(context, client, values.space)
        : enclosingSpace(context.cwd);
    const url =
      space === undefined ? opened.url : `${opened.url}#space=${encodeURIComponent(space)}`;
    let browser = false;
    if (values['no-open'] !== true) browser = await openInBrowser(url);
    if (context.json) {
      writeJson(context.stdout, { url, opened: browser });
      return 0;
    }
    context.stdout.write(`${url}\n`);
    if (values['no-open'] !== true && !browser) {
      context.stderr.write('repa: could not start a browser; open the URL above in yours.\n');
    }
    return 0;
  },
});

/** `repa web`. */
export const webCommands: Command[] = [web];
