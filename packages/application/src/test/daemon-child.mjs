// A daemon in its own process, for tests: serves the built dist of @repa/application for the app
// directory in argv[2]. Prints `ready <socketPath>` once listening, or `error <code>` and exits 1.
// `run.subscribe` answers, then sends one `run.event` whose seq is the generation in argv[3].
import { startRepaServer } from '@repa/application';

const [appDirectory, generation = '1'] = process.argv.slice(2);

const run = (runId) => ({
  runId,
  requestId: 'q1',
  space: '/spaces/a',
  sessionId: 's1',
  input: { type: 'text', text: 'hello' },
  status: 'running',
  attempt: 1,
  promptSettings: {
    base: null,
    append: '',
    projectInstructions: false,
    skillCatalog: true,
    environment: true,
    learningContext: true,
    fileChanges: 'on-demand',
  },
  settingsRevisions: {},
  acceptedAt: '2026-12-02T10:00:00.000Z',
});

try {
  const server = await startRepaServer({
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
  process.stdout.write(`ready ${server.socketPath}\n`);
} catch (error) {
  process.stdout.write(`error ${error.code ?? 'unknown'}\n`);
  process.exit(1);
}
