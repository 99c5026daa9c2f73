import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RepaClient, V1Result } from '@repa/protocol';
import { confirmDestructive, spaceOf, writableSpace } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { formatTable, relativeTime, uniquePrefixes, writeJson } from '../format-table.js';
import { historyText } from '../history-lines.js';
import { limitOf } from '../parse-options.js';
import { resolveSession } from '../resolve-id.js';
import { isTerminal, terminalWidth } from '../style.js';
import { usageError } from '../usage-error.js';

/** The session `id` names (or a unique prefix of it), else the space's most recent one. */
async function existingSession(
  client: RepaClient,
  space: string,
  id: string | undefined,
): Promise<string> {
  return (await resolveSession(client, space, id || 'latest')).sessionId;
}

const SPACE_HELP = '  --space DIR      the space (default: the space you are in)';

const sessionsList = defineCommand({
  words: ['sessions', 'list'],
  summary: 'list the sessions of a space, most recent first',
  usage: 'sessions list [--space DIR] [--limit N]',
  help: `Lists the sessions of a space, most recently changed first: id, created, updated, title. On a
terminal each id is shortened to the fewest characters (at least 8) that tell it apart from the
space's other sessions (they are accepted wherever an id is), times are relative and local, and the
table fits the window.

Options:
${SPACE_HELP}
  --limit N        only the N most recent sessions`,
  options: { space: { type: 'string' }, limit: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const limit = limitOf(values.limit);
    const space = spaceOf(context, values.space);
    const listed = (await (await context.client()).request('session.list', { space })).sessions;
    // The daemon lists the most recently changed first.
    const sessions = listed.slice(0, limit);
    const terminal = isTerminal(context.stdout);
    const time = (iso: string) => (terminal ? relativeTime(iso) : iso);
    const short = uniquePrefixes(listed.map((session) => session.sessionId));
    if (context.json) writeJson(context.stdout, { space, sessions });
    else if (sessions.length === 0) context.stdout.write(`No sessions in ${space}.\n`);
    else {
      context.stdout.write(
        formatTable(
          ['session', 'created', 'updated', 'title'],
          sessions.map((session) => [
            terminal ? (short.get(session.sessionId) ?? session.sessionId) : session.sessionId,
            time(session.createdAt),
            session.updatedAt ? time(session.updatedAt) : '',
            session.title ?? '',
          ]),
          { width: terminalWidth(context.stdout), out: context.stdout },
        ),
      );
    }
    return 0;
  },
});

const sessionsShow = defineCommand({
  words: ['sessions', 'show'],
  summary: 'show the public history of a session',
  usage: 'sessions show [ID] [--full] [--space DIR] [--limit N]',
  help: `Shows the public history of a session (by id or its first characters; default: the space's
most recent one): the requests, replies with their tool calls and targets ([read notes/a.md]), tool
results, learning-context snapshots, file-change notices and summaries. Tool results and context
snapshots take one line each (their first line and size) unless --full; a reply that was cancelled
or failed is marked so. Pi's system entries are not part of it.

Options:
${SPACE_HELP}
  --full           tool results and context snapshots in full
  --limit N        only the last N items

With --json: {"space", "sessionId", "items": [HistoryItem…]}.`,
  options: { space: { type: 'string' }, limit: { type: 'string' }, full: { type: 'boolean' } },
  positionals: [0, 1],
  async run(context, [id], values) {
    const limit = limitOf(values.limit);
    const space = spaceOf(context, values.space);
    const client = await context.client();
    const sessionId = await existingSession(client, space, id);
    const history = (await client.request('session.history', { space, sessionId })).items;
    const items = limit === undefined ? history : history.slice(-limit);
    if (context.json) {
      writeJson(context.stdout, { space, sessionId, items });
      return 0;
    }
    context.stdout.write(`session ${sessionId} in ${space}\n`);
    if (items.length < history.length) {
      context.stdout.write(`(the last ${items.length} of ${history.length} items)\n`);
    }
    if (items.length === 0) context.stdout.write('(no history yet)\n');
    else {
      context.stdout.write(
        `\n${historyText(items, {
          full: values.full === true,
          relative: isTerminal(context.stdout),
          out: context.stdout,
        })}`,
      );
    }
    return 0;
  },
});

const sessionsNew = defineCommand({
  words: ['sessions', 'new'],
  summary: 'start a new session in a space',
  usage: 'sessions new [--title TITLE] [--space DIR]',
  help: `Creates a session in a space. It becomes the space's most recent session, so repa chat and
repa run use it from now on (both continue the most recent session unless --session or --new).

Options:
  --title TITLE    a human title
${SPACE_HELP}`,
  options: { space: { type: 'string' }, title: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const client = await context.client();
    const space = await writableSpace(context, client, values.space);
    const title = values.title;
    const { session } = await client.request('session.create', {
      space,
      ...(title ? { title } : {}),
    });
    if (context.json) writeJson(context.stdout, { session });
    else context.stdout.write(`session ${session.sessionId} created in ${space}\n`);
    return 0;
  },
});

const sessionsRename = defineCommand({
  words: ['sessions', 'rename'],
  summary: 'give a session a new title',
  usage: 'sessions rename ID TITLE… [--space DIR]',
  help: `Gives a session (by id or its first characters) a new title; the rest of the arguments,
joined by spaces, is the title. A session is titled after its first request until renamed.

Options:
${SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [2, Number.POSITIVE_INFINITY],
  async run(context, [id = '', ...words], values) {
    const space = spaceOf(context, values.space);
    const title = words.join(' ').trim();
    if (title === '')
      throw usageError('The title is empty.', 'Pass a title: repa sessions rename ID TITLE.');
    const client = await context.client();
    const { sessionId } = await resolveSession(client, space, id);
    const { session } = await client.request('session.rename', { space, sessionId, title });
    if (context.json) writeJson(context.stdout, { session });
    else
      context.stdout.write(
        `session ${session.sessionId} is now titled "${session.title ?? title}"\n`,
      );
    return 0;
  },
});

const sessionsCompact = defineCommand({
  words: ['sessions', 'compact'],
  summary: "summarise a session's older history now, so the model sees less",
  usage: 'sessions compact [ID] [--instructions TEXT] [--space DIR]',
  help: `Compacts a session (by id or its first characters; default: the space's most recent one)
through Pi's compaction: a summary of its older part stands for it in what the model sees from then
on; the history itself keeps everything, and the learning context is given again after the
summary. The summary is asked for with the standing instructions of the setting
compaction.instructions, then --instructions. Refused (busy) while one of its runs is active.

Options:
${SPACE_HELP}
  --instructions TEXT  what the summary should keep, e.g. "the open questions and the sources"

Both figures are Pi's estimate of what the model is sent (characters / 4), before and after. When
Pi summarised only the start of the current turn it used no instructions: they are named as not
applied.

With --json: {"space", "sessionId", "summary", "tokensBefore", "tokensAfter", "instructions"?,
"instructionsNotApplied"?}.`,
  options: { space: { type: 'string' }, instructions: { type: 'string' } },
  positionals: [0, 1],
  async run(context, [id], values) {
    const space = spaceOf(context, values.space);
    const client = await context.client();
    const sessionId = await existingSession(client, space, id);
    const instructions = values.instructions?.trim();
    const result = await client.request('session.compact', {
      space,
      sessionId,
      ...(instructions ? { instructions } : {}),
    });
    if (context.json) writeJson(context.stdout, { space, sessionId, ...result });
    else context.stdout.write(describeCompaction(sessionId, result));
    return 0;
  },
});

/** What a compaction did, in two lines and the summary. */
export function describeCompaction(sessionId: string, result: V1Result<'session.compact'>): string {
  const after = result.tokensAfter === undefined ? '' : ` to ~${result.tokensAfter}`;
  const notApplied = result.instructionsNotApplied
    ? `instructions not applied: ${result.instructionsNotApplied} (Pi summarised only the start of the current turn, which it does with its own prompt)\n`
    : '';
  return `session ${sessionId} compacted: context ~${result.tokensBefore}${after} tokens (Pi's estimate)
${result.instructions ? `instructions: ${result.instructions}\n` : ''}${notApplied}summary:
${result.summary.replace(/^/gm, '  ')}
`;
}

const FORMATS = { md: 'markdown', markdown: 'markdown', html: 'html', jsonl: 'jsonl' } as const;

const sessionsExport = defineCommand({
  words: ['sessions', 'export'],
  summary: 'write a session out as Markdown, HTML or JSONL',
  usage: 'sessions export [ID] [--format md|html|jsonl] [-o FILE] [--space DIR]',
  help: `Exports a session (by id or its first characters; default: the space's most recent one):
md (the default) is its history to read: every request and reply with the tool calls and tool
results a line each (with the receipts of the files saved), each answer's citation checks,
learning-context snapshots, file-change notices, summaries and, where each run began, its record
(status, model, tokens); html is Pi's own HTML export; jsonl
is Pi's session file as it is (every branch). Written to FILE, or to standard output.

Options:
  --format FORMAT  md, html or jsonl (default md)
  -o, --output F   the file to write (default: standard output)
${SPACE_HELP}`,
  options: {
    space: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  positionals: [0, 1],
  async run(context, [id], values) {
    const name = values.format ?? 'md';
    const format = FORMATS[name as keyof typeof FORMATS];
    if (!format) throw usageError(`Unknown export format '${name}'.`, 'Pass md, html or jsonl.');
    const space = spaceOf(context, values.space);
    const client = await context.client();
    const sessionId = await existingSession(client, space, id);
    const parts: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const part: { content: string; nextOffset?: number } = await client.request(
        'session.export',
        { space, sessionId, format, offset },
      );
      parts.push(part.content);
      offset = part.nextOffset;
    }
    const output = values.output;
    if (output === undefined) context.stdout.write(parts.join(''));
    else {
      const path = resolve(context.cwd, output);
      await writeFile(path, parts.join(''));
      if (context.json) writeJson(context.stdout, { space, sessionId, format, path });
      else context.stdout.write(`session ${sessionId} exported to ${path}\n`);
    }
    return 0;
  },
});

const sessionsDelete = defineCommand({
  words: ['sessions', 'delete'],
  summary: 'delete a session, its history and its runs',
  usage: 'sessions delete ID [--yes] [--space DIR]',
  help: `Deletes a session (by id or its first characters): its Pi session file goes, with its history,
and its runs leave the run ledger (repa runs list no longer shows them). Files the session saved
stay as they are. On a terminal it asks first. Refused (busy) while one of its runs is accepted or
running.

Options:
  --yes            do not ask first
${SPACE_HELP}`,
  options: { space: { type: 'string' }, yes: { type: 'boolean' } },
  positionals: [1, 1],
  async run(context, [id = ''], values) {
    const space = spaceOf(context, values.space);
    const client = await context.client();
    const session = await resolveSession(client, space, id);
    await confirmDestructive(
      context,
      `Delete session ${session.sessionId}${session.title ? ` "${session.title}"` : ''}, its history and its runs?`,
      values.yes === true,
    );
    const { sessionId, runsRemoved = 0 } = await client.request('session.delete', {
      space,
      sessionId: session.sessionId,
    });
    if (context.json) writeJson(context.stdout, { sessionId, deleted: true, runsRemoved });
    else {
      context.stdout.write(
        `session ${sessionId} deleted, with ${runsRemoved} run${runsRemoved === 1 ? '' : 's'}\n`,
      );
    }
    return 0;
  },
});

/** `repa sessions list|show|new|rename|compact|export|delete`. */
export const sessionCommands: Command[] = [
  sessionsList,
  sessionsShow,
  sessionsNew,
  sessionsRename,
  sessionsCompact,
  sessionsExport,
  sessionsDelete,
];
