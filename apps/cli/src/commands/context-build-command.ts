import { randomUUID } from 'node:crypto';
import { RepaError, type V1Result } from '@repa/protocol';
import { spacePathOf, writableSpace } from '../cli-context.js';
import { defineCommand } from '../command.js';
import { writeJson } from '../format-table.js';
import { usageError } from '../usage-error.js';
import { writeError } from '../write-error.js';
import { currentRevision, readContext } from './context-io.js';

/** The lines of a built context's body `context build` shows. */
const SHOWN_LINES = 20;

/** `repa context build`. */
export const contextBuild = defineCommand({
  words: ['context', 'build'],
  summary: 'build the learning context from documents of the space',
  usage:
    'context build [SOURCE… | --rebuild] [--instructions TEXT] [--model ID] [--force] [--space DIR]',
  help: `Builds the space's learning context from the named documents through the daemon
(context.build): one standalone call to the model the space's next run uses (or --model; no
session, no history), retried by Pi like a run and failing with a run's codes, which writes
what the learner is working on, the key ideas and open questions. Documents too large for the
model's window are cut, and the command says how much of each the model saw. On repa-offline the
context is extractive (the headings and first sentences of each document) and labelled as such.
Each document's sha256 is recorded, so "repa context show" can tell when it changes. Nothing is
written unless the build completes (Ctrl-C cancels it); when someone else writes the context during
the build it fails with stale_version; a damaged file is refused unless --force. It shows what it
wrote: its sources and the body (its first ${SHOWN_LINES} lines, with the rest in repa context show).

Arguments:
  SOURCE           a document or folder of the space, relative to the folder you are in or its
                   root; a folder stands for every note, PDF, DOCX, EPUB and HTML file below it
                   (at most 50, in path order). None: rebuild from the recorded sources

Options:
  --rebuild        build again from the sources the context records (as with no SOURCE)
  --instructions TEXT  what the context should focus on
  --model ID       provider/id of the model for this build (see repa models), or repa-offline
  --force          replace a damaged file (its bytes are kept as learning-context.damaged-*.json)
  --space DIR      the space (default: the space you are in)

With --json: {"space", "revision", "model", "extractive", "cut": [{"path", "keptChars", "totalChars"}]}.`,
  options: {
    space: { type: 'string' },
    instructions: { type: 'string' },
    model: { type: 'string' },
    force: { type: 'boolean' },
    rebuild: { type: 'boolean' },
  },
  positionals: [0, 100],
  async run(context, args, values) {
    const space = await writableSpace(context, await context.client(), values.space);
    const client = await context.client();
    const buildId = randomUUID();
    if (values.rebuild && args.length > 0) {
      throw usageError('--rebuild takes no SOURCE.', 'Name sources, or pass --rebuild alone.');
    }
    // The revision read now: a write made by someone else during the build makes it stale_version.
    const current = await currentRevision(context, space, values.force === true);
    const sources =
      args.length > 0
        ? args.map((source) => spacePathOf(context, space, source))
        : (current?.sources ?? []);
    if (sources.length === 0) {
      throw new RepaError('not_found', 'The space has no learning context to rebuild.', {
        fix: 'Name the documents or folders to build it from, e.g. repa context build notes/',
      });
    }
    const stop = client.on('context.progress', (progress) => {
      if (progress.buildId === buildId && !context.json) {
        context.stdout.write(
          progress.step === 'retry' ? `[retry] ${progress.message}\n` : `… ${progress.message}\n`,
        );
      }
    });
    const instructions = values.instructions;
    // Ctrl-C asks the daemon to cancel the build (nothing is written); a second one leaves at once.
    let interrupted = false;
    const onInterrupt = () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      void client.request('context.cancel', { buildId }).catch(() => undefined);
    };
    process.on('SIGINT', onInterrupt);
    let result: V1Result<'context.build'>;
    try {
      result = await client.request('context.build', {
        space,
        buildId,
        sources,
        expectedRevision: current?.revision ?? null,
        ...(instructions ? { instructions } : {}),
        ...(values.model ? { model: values.model } : {}),
        ...(values.force === true ? { force: true } : {}),
      });
    } catch (error) {
      if (interrupted && RepaError.isInstance(error) && error.code === 'cancelled') {
        writeError(context.stderr, error);
        return 130;
      }
      throw error;
    } finally {
      process.off('SIGINT', onInterrupt);
      stop();
    }
    if (context.json) {
      writeJson(context.stdout, { space, ...result });
      return 0;
    }
    const out = context.stdout;
    if (result.damagedFileKept) out.write(`kept the damaged file as ${result.damagedFileKept}\n`);
    for (const cut of result.cut) {
      const why =
        cut.reason === 'read-limit'
          ? 'a build reads the first 4 MiB of a source'
          : "the model's window is full";
      out.write(
        `cut       ${cut.path}: the model saw ${cut.keptChars} of ${cut.totalChars} characters (${why})\n`,
      );
    }
    out.write(`revision  ${result.revision}\n`);
    out.write(
      `built by  ${result.model}${result.extractive ? ' (extractive: headings and first sentences, no language model)' : ''}\n`,
    );
    // What it wrote, as the space has it now.
    const written = (await readContext(context, space)).context;
    if (written) {
      out.write(`sources   ${written.sources.join(', ')}\n\n`);
      const lines = written.body.trimEnd().split('\n');
      out.write(`${lines.slice(0, SHOWN_LINES).join('\n')}\n`);
      if (lines.length > SHOWN_LINES) {
        out.write(`… ${lines.length - SHOWN_LINES} more lines (repa context show prints it all)\n`);
      }
    }
    return 0;
  },
});
