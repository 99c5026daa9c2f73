#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RepaError } from '@repa/protocol';
import { formatDaemonFailure, formatDaemonReady } from '@repa/protocol/node';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

const HELP = `repa-daemon ${version} — serves Repa's protocol v1 over a unix socket.

Usage: repa-daemon [options]

Options:
  --app-dir DIR     Repa's application directory (default: $XDG_CONFIG_HOME/repa or ~/.config/repa)
  --agent-dir DIR   Pi's configuration directory with models and credentials (default: ~/.pi/agent)
  --model ID        provider/id of the model, or repa-offline, for runs no settings level
                    (model.id) or run chooses one for (default: decided at each run's acceptance:
                    the model Pi itself would choose from its settings and the credentials it has
                    then, else the embedded offline responder)
  --tcp-port PORT   also listen on 127.0.0.1:PORT; clients authenticate with REPA_TCP_TOKEN
  -h, --help        show this help

Pi's auth.json and models.json are read again when they change: a key stored by repa login, by
hand or by pi is used by the next run without a restart; environment variables are read at start.
The socket is <app-dir>/run/daemon.sock. One daemon serves one app directory. On request (repa web)
it also serves the web app on 127.0.0.1, guarded by a per-launch secret. SIGTERM or SIGINT
stops it: requests in flight are answered, active runs get 5 seconds, then are cancelled. It exits
by itself after the setting daemon.idleMinutes (default 30; 0 never) with no connection, no request
and no accepted or running run.
Most people never start it by hand: the repa command starts it when needed.
`;

function fail(error: RepaError): never {
  process.stderr.write(formatDaemonFailure(error));
  process.exit(1);
}

let values: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      'app-dir': { type: 'string' },
      'agent-dir': { type: 'string' },
      model: { type: 'string' },
      'tcp-port': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
}
try {
  values = parse();
} catch (error) {
  fail(
    new RepaError('invalid_request', (error as Error).message, { fix: 'Run repa-daemon --help.' }),
  );
}
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
let tcp: { port: number; token: string } | undefined;
if (values['tcp-port'] !== undefined) {
  const port = Number(values['tcp-port']);
  const token = process.env.REPA_TCP_TOKEN ?? '';
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    fail(
      new RepaError('invalid_request', `Not a TCP port: ${values['tcp-port']}`, {
        fix: 'Pass 0–65535.',
      }),
    );
  }
  if (token.length < 16) {
    fail(
      new RepaError('invalid_request', 'REPA_TCP_TOKEN must hold at least 16 characters.', {
        fix: 'Export a random token, e.g. REPA_TCP_TOKEN=$(openssl rand -hex 16).',
      }),
    );
  }
  tcp = { port, token };
}

process.env.PI_OFFLINE ??= '1';
// node:sqlite is stable enough for the ledger; its experimental notice would only confuse users.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  if (String(warning).includes('SQLite is an experimental feature')) return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
// Most of a cold start is compiling Pi's modules; Node's on-disk compile cache reuses that work.
enableCompileCache?.();
const { runDaemon } = await import('@repa/application');
// The web app's built files (repa web), found through the @repa/web dependency; never imported.
const webStaticDirectory = join(
  dirname(fileURLToPath(import.meta.resolve('@repa/web/package.json'))),
  'dist',
);
try {
  let stopping = false;
  const daemon = await runDaemon({
    version,
    onIdle: () => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(
        `${new Date().toISOString()} idle for daemon.idleMinutes with no connection and no run: exiting\n`,
      );
      void daemon.close({ graceMs: 0 }).then(() => process.exit(0));
    },
    ...(values['app-dir'] ? { appDirectory: values['app-dir'] } : {}),
    ...(values['agent-dir'] ? { agentDir: values['agent-dir'] } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(tcp ? { tcp } : {}),
    webStaticDirectory,
  });
  process.stdout.write(formatDaemonReady({ socketPath: daemon.socketPath, model: daemon.model }));
  const stop = () => {
    stopping = true;
    void daemon.close({ graceMs: 5_000 }).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  fail(RepaError.fromUnknown(error));
}
