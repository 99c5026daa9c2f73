// A daemon in its own process, for tests: serves the built dist of @repa/application for the app
// directory in argv[2]. Prints `ready <socketPath>` (plus ` <tcpPort>` when TCP is on) once listening,
// or `error <code>` and exits 1. `run.subscribe` answers, then sends one `run.event` whose seq is the
// generation in argv[3]. argv[4], when given, is JSON of further startRepaServer options (limits, tcp).
import { startRepaServer } from '@repa/application';
import { runInfo } from '@repa/protocol/testing';

const [appDirectory, generation = '1', options = '{}'] = process.argv.slice(2);

const run = (runId) => runInfo({ runId, settingsRevisions: {} });

try {
  const server = await startRepaServer({
    ...JSON.parse(options),
    appDirectory,
    handlers: {
      'run.get': async ({ runId }) => ({ run: run(runId) }),
      'run.subscribe': async ({ runId }, context) => {
        setImmediate(() =>
          context.notify('run.event', {
            runId,
            sessionId: 's1',
            seq: Number(generation),
            event: { type: 'text-delta', delta: `from daemon ${generation}` },
          }),
        );
        return { run: run(runId) };
      },
    },
  });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  const port = server.tcpAddress ? ` ${server.tcpAddress.port}` : '';
  process.stdout.write(`ready ${server.socketPath}${port}\n`);
} catch (error) {
  process.stdout.write(`error ${error.code ?? 'unknown'}\n`);
  process.exit(1);
}
