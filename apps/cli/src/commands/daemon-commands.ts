import { keepingWebState } from '@repa/protocol/node';
import type { CliContext } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { type DaemonStatus, daemonStatus, startDaemon, stopDaemon } from '../daemon-control.js';
import { describeModel } from '../describe-model.js';
import { writeJson } from '../format-table.js';

/** The daemon's state as human lines. */
export function describeDaemon(status: DaemonStatus): string {
  if (!status.running) {
    return `daemon    not running (the first command that needs it starts it)
socket    ${status.socketPath}
log       ${status.logPath}
`;
  }
  const model = status.model
    ? `${describeModel(status.model)} — its --model, for runs no settings level chooses a model for`
    : "decided per run when it is accepted (repa doctor names this space's next one)";
  return `daemon    running${status.pid === undefined ? '' : ` (pid ${status.pid})`}, ${status.server?.name ?? 'repa-daemon'} ${status.server?.version ?? ''}
model     ${model}
socket    ${status.socketPath}
log       ${status.logPath}
`;
}

function writeStatus(context: CliContext, status: DaemonStatus, extra: Record<string, unknown>) {
  if (context.json) writeJson(context.stdout, { ...extra, ...status });
  else context.stdout.write(describeDaemon(status));
}

const daemonStart = defineCommand({
  words: ['daemon', 'start'],
  summary: 'start the daemon in the background',
  usage: 'daemon start [--model ID]',
  help: `Starts the daemon of the app directory in the background (detached; its output goes to
<app-dir>/run/daemon.log) and waits until it is ready. Does nothing when it already runs.
Other commands start it by themselves. Credentials and Pi's models.json are read again at each
run, so a new key needs no restart; environment variables are read when it starts.

Options:
  --model ID       provider/id of the model, or repa-offline, for runs no settings level (model.id)
                   or --model chooses one for (default: Pi's default among the models with
                   credentials when the run is accepted, else repa-offline)`,
  options: { model: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const model = values.model;
    const { started, status } = await startDaemon({
      appDirectory: context.appDirectory,
      agentDir: context.agentDir,
      model,
    });
    if (!context.json) {
      context.stdout.write(
        started
          ? 'started\n'
          : `already running${model ? ' (its model is kept; stop it first to change the model)' : ''}\n`,
      );
    }
    writeStatus(context, status, { started });
    return 0;
  },
});

const daemonStop = defineCommand({
  words: ['daemon', 'stop'],
  summary: 'stop the daemon (active runs get 5 seconds to finish)',
  usage: 'daemon stop',
  help: `Stops the daemon of the app directory: sends SIGTERM to the pid in <app-dir>/run/daemon.pid and
waits until the process is gone. Active runs get 5 seconds to finish, then are cancelled. Does nothing
when no daemon runs.`,
  options: {},
  positionals: [0, 0],
  async run(context) {
    const result = await stopDaemon(context.appDirectory);
    if (context.json) writeJson(context.stdout, result);
    else {
      context.stdout.write(
        result.stopped ? `stopped (pid ${result.pid})\n` : 'not running; nothing to stop\n',
      );
    }
    return 0;
  },
});

const daemonStatusCommand = defineCommand({
  words: ['daemon', 'status'],
  summary: 'show whether the daemon runs, its pid, model, socket and log',
  usage: 'daemon status',
  help: `Shows whether the daemon of the app directory runs, with its pid, version, model, socket and
log. Never starts it.`,
  options: {},
  positionals: [0, 0],
  async run(context) {
    writeStatus(context, await daemonStatus(context.appDirectory), {});
    return 0;
  },
});

const daemonRestart = defineCommand({
  words: ['daemon', 'restart'],
  summary: 'stop the daemon and start it again (e.g. after exporting a key variable)',
  usage: 'daemon restart [--model ID]',
  help: `Stops the daemon of the app directory like repa daemon stop (active runs get 5 seconds to
finish), then starts it again like repa daemon start, reading its environment anew (a key variable
exported since). A key stored with repa login or in Pi's auth.json needs no restart. The new daemon
keeps no model it was not given: without --model, each run's model is decided when it is accepted.
It serves the web app again on the same port with the same secret, so an open page (repa web)
reconnects by itself. Starts it when none runs.

Options:
  --model ID       provider/id of the model, or repa-offline, for runs no settings level chooses
                   one for (default: none; Pi's default among the models with credentials)`,
  options: { model: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    // Spec R71: only a model named now; the one the old daemon was started with is not kept.
    const model = values.model;
    // The web app's port and secret are kept: an open page reconnects to the new daemon.
    const stopped = await keepingWebState(context.appDirectory, () =>
      stopDaemon(context.appDirectory),
    );
    const { status } = await startDaemon({
      appDirectory: context.appDirectory,
      agentDir: context.agentDir,
      model,
    });
    if (!context.json) {
      context.stdout.write(
        stopped.stopped ? `restarted (pid ${stopped.pid} → ${status.pid ?? '?'})\n` : 'started\n',
      );
    }
    writeStatus(context, status, { restarted: stopped.stopped });
    return 0;
  },
});

/** `repa daemon start|stop|restart|status`. */
export const daemonCommands: Command[] = [
  daemonStart,
  daemonStop,
  daemonRestart,
  daemonStatusCommand,
];
