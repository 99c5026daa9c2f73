import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  OFFLINE_MODEL_ID,
  type RepaClient,
  RepaError,
  type RunEventNotification,
  type RunInfo,
} from '@repa/protocol';
import type { CliContext } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { connectDaemon, stopDaemon } from '../daemon-control.js';
import { describeModel } from '../describe-model.js';
import { type FollowedRun, followRun } from '../follow-run.js';
import { RunPrinter } from '../run-printer.js';

const NOTES: Record<string, string> = {
  'notes/a.md': `# Spaced repetition

Spaced repetition schedules each review just before you would forget.
The review interval grows after every successful recall.
Cards you miss come back the next day.
`,
  'notes/b.md': `# Active recall

Close the book and write down what you remember, then check.
Recall beats rereading: the effort of retrieval is what makes memories last.
`,
  'notes/plan.md': `# Study plan

- Review the deck weekly.
- Write one summary per chapter.
`,
};

const LEARNING_CONTEXT = {
  body: 'The learner prepares an exam on memory research. Current focus: spaced repetition (notes/a.md) and active recall (notes/b.md).',
  sources: ['notes/a.md', 'notes/b.md'],
};

const CHANGED_LINE = 'The review interval now doubles after every successful recall.';

const RUNS = {
  question: 'What does notes/a.md say about the review interval?',
  edit: 'replace "weekly" with "every morning" in notes/plan.md',
  after: 'Read notes/a.md again: what does it say about the review interval now?',
};

/** Writes progress lines; `start` leaves the line open until `end` closes it with the time taken. */
class Steps {
  readonly #context: CliContext;
  #started: number | undefined;
  constructor(context: CliContext) {
    this.#context = context;
  }
  line(text = ''): void {
    if (this.#started !== undefined) this.end('failed');
    if (!this.#context.json) this.#context.stdout.write(`${text}\n`);
  }
  start(text: string): void {
    if (this.#started !== undefined) this.end('failed');
    this.#started = performance.now();
    if (!this.#context.json) this.#context.stdout.write(`${text} … `);
  }
  end(text: string): void {
    const seconds = ((performance.now() - (this.#started ?? 0)) / 1000).toFixed(1);
    this.#started = undefined;
    if (!this.#context.json) this.#context.stdout.write(`${text} (${seconds} s)\n`);
  }
}

interface DemoRun {
  run: RunInfo;
  events: RunEventNotification[];
}

const demo = defineCommand({
  words: ['demo'],
  summary: 'watch Repa work in a sample space: three runs, then clean up',
  usage: 'demo [--model ID] [--keep]',
  help: `Creates a sample space in a temporary directory (three notes and a learning context), starts a
daemon of its own on a temporary app directory, and performs three runs, printing what happens:
  1. a question answered from a document (with the prompt sections the model saw);
  2. an edit, saved with a receipt;
  3. after the demo changes a note on disk between runs, a run that is told about the change
     (prompts.fileChanges is set to "notice" for the demo session).
Then it stops its daemon, removes the temporary directory and exits 0. Needs no terminal and no key.

Options:
  --model ID       provider/id of a model with credentials (default: repa-offline, the embedded
                   local responder, which is not a language model)
  --keep           keep the temporary directory (the space, its sessions and the daemon log)

With --json, prints the run events as JSON lines and a final {"kind":"demo"} summary.`,
  options: { model: { type: 'string' }, keep: { type: 'boolean' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const model = values.model ?? OFFLINE_MODEL_ID;
    const strictOffline = model === OFFLINE_MODEL_ID;
    const steps = new Steps(context);
    steps.line(`Repa demo: three runs in a sample space, on ${describeModel(model)}.`);
    steps.line();

    const root = await mkdtemp(join(tmpdir(), 'repa-demo-'));
    const space = join(root, 'space');
    const appDirectory = join(root, 'app');
    let client: RepaClient | undefined;
    let daemonStarted = false;
    let interrupted = false;
    let active: FollowedRun | undefined;
    let succeeded = false;
    const onInterrupt = () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      active?.cancel();
    };
    process.on('SIGINT', onInterrupt);
    try {
      steps.start(`creating a sample space in ${space}`);
      for (const [path, text] of Object.entries(NOTES)) {
        await mkdir(join(space, path, '..'), { recursive: true });
        await writeFile(join(space, path), text);
      }
      steps.end(Object.keys(NOTES).join(', '));

      steps.start('starting daemon');
      const started = await connectDaemon({
        appDirectory,
        agentDir: context.agentDir,
        model,
        client: { name: 'repa-demo', version: context.version },
      });
      daemonStarted = true;
      client = started.client;
      const { status } = started;
      steps.end(`ready, pid ${status.pid ?? '?'}, model: ${describeModel(status.model)}`);
      steps.start('writing the learning context');
      const learning = await client.request('context.set', {
        space,
        ...LEARNING_CONTEXT,
        expectedRevision: null,
      });
      steps.end(`revision ${learning.revision} from ${LEARNING_CONTEXT.sources.join(', ')}`);
      const { session } = await client.request('session.create', { space, title: 'Repa demo' });
      await client.request('settings.set', {
        space,
        sessionId: session.sessionId,
        level: 'session',
        key: 'prompts.fileChanges',
        value: 'notice',
      });
      steps.line(
        `    session ${session.sessionId}, prompts.fileChanges = "notice" (session level)`,
      );

      const perform = async (
        index: number,
        title: string,
        text: string,
        promptSections: 'full' | 'summary',
      ): Promise<DemoRun> => {
        const events: RunEventNotification[] = [];
        const printer = new RunPrinter({
          out: context.stdout,
          json: context.json,
          indent: '    ',
          promptSections,
          showErrors: true,
        });
        steps.line();
        steps.line(title);
        steps.line(`    you: ${text}`);
        const connected = client as RepaClient;
        const stop = connected.on('run.event', (notification) => events.push(notification));
        active = followRun(connected, printer, () =>
          connected.request('run.submit', {
            space,
            sessionId: session.sessionId,
            requestId: `demo-${index}-${session.sessionId}`,
            input: { type: 'text', text },
          }),
        );
        try {
          const run = await active.done;
          if (run.status !== 'succeeded') {
            throw run.error
              ? RepaError.fromWire(run.error)
              : new RepaError('internal', `Run ${run.runId} ended ${run.status}.`);
          }
          return { run, events: events.filter((event) => event.runId === run.runId) };
        } finally {
          stop();
          active = undefined;
        }
      };

      const first = await perform(
        1,
        'Run 1: a question answered from a document',
        RUNS.question,
        'full',
      );
      const second = await perform(2, 'Run 2: an edit saved with a receipt', RUNS.edit, 'summary');
      const receipts = second.events.flatMap(({ event }) =>
        event.type === 'tool-end' ? (event.receipts ?? []) : [],
      );
      const plan = await readFile(join(space, 'notes/plan.md'), 'utf8');
      steps.line(
        `    notes/plan.md on disk now says: ${plan.split('\n').find((line) => line.startsWith('- Review')) ?? '?'}`,
      );

      steps.line();
      steps.line('Between runs: the demo changes notes/a.md on disk, outside Repa');
      const before = NOTES['notes/a.md'] ?? '';
      await writeFile(
        join(space, 'notes/a.md'),
        before.replace('The review interval grows after every successful recall.', CHANGED_LINE),
      );
      steps.line(`    notes/a.md now says: ${CHANGED_LINE}`);

      const third = await perform(
        3,
        'Run 3: the next run is told about the change',
        RUNS.after,
        'summary',
      );
      const notices = third.events.filter(({ event }) => event.type === 'file-change-notice');

      const problems = [
        ...(receipts.length === 0 ? ['run 2 saved nothing with a receipt'] : []),
        ...(notices.length === 0 ? ['run 3 was not told about the change to notes/a.md'] : []),
      ];
      steps.line();
      if (problems.length === 0) {
        steps.line(
          `Done: 3 runs succeeded; ${receipts.length} save with a receipt; the change made outside Repa was told to the model in run 3.`,
        );
      } else {
        steps.line(`Done, but ${problems.join('; ')}.`);
      }
      if (context.json) {
        context.stdout.write(
          `${JSON.stringify({
            kind: 'demo',
            space,
            model,
            sessionId: session.sessionId,
            runs: [first.run, second.run, third.run],
            receipts,
            fileChangeNotices: notices.map(({ event }) => event),
            problems,
          })}\n`,
        );
      }
      if (problems.length > 0 && strictOffline) {
        throw new RepaError(
          'internal',
          `The demo did not show everything: ${problems.join('; ')}.`,
        );
      }
      succeeded = true;
      return 0;
    } catch (error) {
      if (interrupted) {
        steps.line();
        steps.line('Interrupted.');
        return 130;
      }
      throw error;
    } finally {
      process.off('SIGINT', onInterrupt);
      await client?.close();
      if (daemonStarted) {
        steps.start('stopping daemon');
        const stopped = await stopDaemon(appDirectory);
        steps.end(stopped.stopped ? 'stopped' : 'it had already stopped');
      }
      if (values.keep) {
        steps.line(`Kept ${root} (space in space/, daemon log in app/run/daemon.log).`);
      } else {
        await rm(root, { recursive: true, force: true });
        steps.line(`Removed ${root} (pass --keep to look at it).`);
      }
      if (succeeded) {
        steps.line();
        steps.line(
          'Next: repa chat in a folder of your notes; repa doctor shows how to use a real model.',
        );
      }
    }
  },
});

/** `repa demo`. */
export const demoCommands: Command[] = [demo];
