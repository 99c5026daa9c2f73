import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type LearningContextSourceState, RepaError, type V1Result } from '@repa/protocol';
import { confirmDestructive, spaceOf, spacePathOf, writableSpace } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { relativeTime, writeJson } from '../format-table.js';
import { sessionOrLatest } from '../resolve-id.js';
import { usageError } from '../usage-error.js';
import { contextBuild } from './context-build-command.js';
import { currentRevision, readContext, writeContext } from './context-io.js';

/** The warning lines for sources that changed or vanished since the context was written. */
function staleLines(
  states: readonly LearningContextSourceState[],
  updatedAt: string | null | undefined,
): string[] {
  const when = updatedAt ? relativeTime(updatedAt) : 'at an unknown time';
  return states
    .filter((source) => source.state === 'changed' || source.state === 'vanished')
    .map(
      (source) =>
        `${source.path} ${source.state === 'changed' ? 'changed' : 'vanished'} since this context was built (${when}) — rebuild with \`repa context build\``,
    );
}

const contextShow = defineCommand({
  words: ['context', 'show'],
  summary: 'show the learning context the next run would see',
  usage: 'context show [--space DIR] [--session ID]',
  help: `Shows the space's current learning context (revision, sources and body, from
<space>/.repa/learning-context.json), or "none", and whether the next run of the session is given it
(the prompts.learningContext setting). Sources that changed or vanished since the context was
written are named. A damaged file is reported as context_unavailable (data_too_large past 1 MiB),
the same error the next run would fail with.

Options:
  --space DIR      the space (default: the space you are in)
  --session ID     the session whose settings decide (default: the space's most recent session)

With --json: {"space", "sessionId", "provided", "providedSource", "lastProvidedRevision",
"learningContext": {"revision", "sources", "body", "updatedAt", "sourceStates"} | null}.`,
  options: { space: { type: 'string' }, session: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const space = spaceOf(context, values.space);
    const client = await context.client();
    const sessionId = (await sessionOrLatest(client, space, values.session))?.sessionId;
    const got = await readContext(context, space, sessionId);
    const provided = got.provided?.value ?? true;
    const providedSource = got.provided?.source ?? 'default';
    const found = got.context;
    const learningContext = found && {
      revision: found.revision,
      sources: found.sources,
      body: found.body,
      updatedAt: found.updatedAt ?? null,
      sourceStates: found.sourceStates ?? [],
    };
    if (context.json) {
      writeJson(context.stdout, {
        space,
        sessionId: sessionId ?? null,
        provided,
        providedSource,
        lastProvidedRevision: got.lastProvidedRevision ?? null,
        learningContext,
      });
      return 0;
    }
    const out = context.stdout;
    out.write(`space     ${space}\n`);
    if (learningContext === null) {
      out.write('context   none (the space has no .repa/learning-context.json)\n');
      return 0;
    }
    out.write(`revision  ${learningContext.revision}\n`);
    out.write(`sources   ${learningContext.sources.join(', ') || '(none)'}\n`);
    for (const line of staleLines(learningContext.sourceStates, learningContext.updatedAt)) {
      out.write(`          ${line}\n`);
    }
    out.write(
      `provided  ${provided ? 'yes' : 'no'} (prompts.learningContext = ${JSON.stringify(provided)}, from ${providedSource})\n`,
    );
    if (sessionId && got.lastProvidedRevision !== undefined) {
      out.write(
        `session   ${sessionId} last got ${got.lastProvidedRevision === null ? 'no learning context' : `revision ${got.lastProvidedRevision}`}\n`,
      );
    }
    out.write(`\n${learningContext.body}${learningContext.body.endsWith('\n') ? '' : '\n'}`);
    return 0;
  },
});

const contextSet = defineCommand({
  words: ['context', 'set'],
  summary: "replace the space's learning context",
  usage: 'context set (--file F | --body TEXT) [--source P …] [--force] [--space DIR]',
  help: `Replaces the space's learning context through the daemon (context.set): the body comes from
--file or --body, the sources from each --source (paths inside the space). A source the context
already names keeps the version it was built from, so "repa context show" still says when it changed
since; a new source is hashed as it is now. Only "repa context build" records new versions. The write is refused with stale_version
when the context changed between reading and writing it, and with context_unavailable (or
data_too_large) when the file is damaged, unless --force, which keeps the damaged bytes beside it.

Options:
  --file F         read the body from this file (relative to the working directory)
  --body TEXT      the body itself
  --source P       a source the body was built from (repeatable)
  --force          replace a damaged file (its bytes are kept as learning-context.damaged-*.json)
  --space DIR      the space (default: the space you are in)

With --json: {"space", "revision", "damagedFileKept"?}.`,
  options: {
    space: { type: 'string' },
    file: { type: 'string' },
    body: { type: 'string' },
    source: { type: 'string', multiple: true },
    force: { type: 'boolean' },
  },
  positionals: [0, 0],
  async run(context, _args, values) {
    const space = await writableSpace(context, await context.client(), values.space);
    const file = values.file;
    const text = values.body;
    if ((file === undefined) === (text === undefined)) {
      throw usageError(
        'Give the body with exactly one of --file or --body.',
        'repa context set --body "What I am studying…" --source notes.md',
      );
    }
    const body =
      file === undefined ? (text ?? '') : await readFile(resolve(context.cwd, file), 'utf8');
    const force = values.force === true;
    const current = await currentRevision(context, space, force);
    return writeContext(context, {
      space,
      body,
      sources: (values.source ?? []).map((source) => spacePathOf(context, space, source)),
      expectedRevision: current?.revision ?? null,
      force,
    });
  },
});

const contextClear = defineCommand({
  words: ['context', 'clear'],
  summary: "empty the space's learning context",
  usage: 'context clear [--yes] [--force] [--space DIR]',
  help: `Writes an empty learning context (no body, no sources) as a new revision, so the next run of
every session is told the context is now empty. On a terminal it asks first. A damaged file is
refused unless --force.

Options:
  --yes            do not ask first
  --force          replace a damaged file (its bytes are kept as learning-context.damaged-*.json)
  --space DIR      the space (default: the space you are in)

With --json: {"space", "revision", "damagedFileKept"?}.`,
  options: { space: { type: 'string' }, force: { type: 'boolean' }, yes: { type: 'boolean' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const space = await writableSpace(context, await context.client(), values.space);
    const force = values.force === true;
    const current = await currentRevision(context, space, force);
    await confirmDestructive(
      context,
      `Empty the learning context of ${space} (revision ${current?.revision ?? 'none'})? Every session's next run is told it is empty.`,
      values.yes === true,
    );
    return writeContext(context, {
      space,
      body: '',
      sources: [],
      expectedRevision: current?.revision ?? null,
      force,
    });
  },
});

const contextEdit = defineCommand({
  words: ['context', 'edit'],
  summary: 'edit the learning context body in $VISUAL or $EDITOR',
  usage: 'context edit [--space DIR]',
  help: `Opens the body of the space's learning context in $VISUAL (else $EDITOR, else vi) and saves it
when the editor exits and the text changed, keeping its sources and the versions they were built
from (a source that changed since still shows as changed). When the context changed in the
meantime the save is refused (stale_version) and your text is left in the temporary file named.

Options:
  --space DIR      the space (default: the space you are in)

With --json: {"space", "saved", "revision"}.`,
  options: { space: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const space = await writableSpace(context, await context.client(), values.space);
    const current = (await readContext(context, space)).context;
    const folder = await mkdtemp(join(tmpdir(), 'repa-context-'));
    const file = join(folder, 'learning-context.md');
    const before = current?.body ?? '';
    await writeFile(file, before);
    await runEditor(file).catch(async (error: unknown) => {
      await rm(folder, { recursive: true, force: true });
      throw error;
    });
    const after = await readFile(file, 'utf8');
    if (after === before) {
      await rm(folder, { recursive: true, force: true });
      if (context.json)
        writeJson(context.stdout, { space, saved: false, revision: current?.revision ?? null });
      else context.stdout.write('unchanged; nothing saved\n');
      return 0;
    }
    const client = await context.client();
    let result: V1Result<'context.set'>;
    try {
      result = await client.request('context.set', {
        space,
        body: after,
        sources: current?.sources ?? [],
        expectedRevision: current?.revision ?? null,
      });
    } catch (error) {
      if (RepaError.isInstance(error) && error.code === 'stale_version') {
        throw new RepaError(
          'stale_version',
          `The learning context changed while you edited it; your text is kept in ${file}.`,
          {
            fix: `Run "repa context show", merge your text from ${file}, then "repa context set --file ${file}".`,
            details: { ...error.details, kept: file },
          },
        );
      }
      throw error;
    }
    await rm(folder, { recursive: true, force: true });
    if (context.json) writeJson(context.stdout, { space, saved: true, revision: result.revision });
    else context.stdout.write(`revision  ${result.revision}\n`);
    return 0;
  },
});

/** Runs `$VISUAL`/`$EDITOR` (a shell command line, e.g. `code --wait`) on `file`, inheriting the terminal. */
function runEditor(file: string): Promise<void> {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  return new Promise((resolvePromise, reject) => {
    const child = spawn(`${editor} "$REPA_EDIT_FILE"`, {
      shell: true,
      stdio: 'inherit',
      env: { ...process.env, REPA_EDIT_FILE: file },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else
        reject(
          new RepaError(
            'invalid_request',
            `The editor (${editor}) exited with ${signal ?? `code ${code}`}; nothing was saved.`,
            {
              fix: 'Set $VISUAL or $EDITOR to an editor that exits with 0 after saving (e.g. "code --wait").',
            },
          ),
        );
    });
  });
}

/** `repa context show|set|edit|build|clear`. */
export const contextCommands: Command[] = [
  contextShow,
  contextSet,
  contextEdit,
  contextBuild,
  contextClear,
];
