import { RepaError } from '@repa/protocol';
import { sessionOrLatest, spaceOf } from '../cli-context.js';
import type { Command } from '../command.js';
import { formatTable, writeJson } from '../format-table.js';

const str = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

const SPACE_HELP = '  --space DIR      the space (default: the current directory)';

const sessionsList: Command = {
  words: ['sessions', 'list'],
  summary: 'list the sessions of a space, most recent first',
  usage: 'sessions list [--space DIR]',
  help: `Lists the sessions of a space, most recently changed first: id, created, updated, title.

Options:
${SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const space = spaceOf(context, str(values.space));
    const { sessions } = await (await context.client()).request('session.list', { space });
    sessions.sort((a, b) => (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt));
    if (context.json) writeJson(context.stdout, { space, sessions });
    else if (sessions.length === 0) context.stdout.write(`No sessions in ${space}.\n`);
    else {
      context.stdout.write(
        formatTable(
          ['session', 'created', 'updated', 'title'],
          sessions.map((session) => [
            session.sessionId,
            session.createdAt,
            session.updatedAt ?? '',
            session.title ?? '',
          ]),
        ),
      );
    }
    return 0;
  },
};

const sessionsShow: Command = {
  words: ['sessions', 'show'],
  summary: 'show the public history of a session',
  usage: 'sessions show [ID] [--space DIR]',
  help: `Shows the public history of a session (by id or its first characters; default: the space's
most recent one): the requests,
replies, tool results, learning-context snapshots, file-change notices and summaries. Pi's system
entries are not part of it.

Options:
${SPACE_HELP}

With --json: {"space", "sessionId", "items": [HistoryItem…]}.`,
  options: { space: { type: 'string' } },
  positionals: [0, 1],
  async run(context, [id], values) {
    const space = spaceOf(context, str(values.space));
    const client = await context.client();
    const sessionId = await sessionOrLatest(client, space, id);
    if (sessionId === undefined) {
      throw new RepaError('not_found', `Space ${space} has no sessions.`, {
        fix: 'Start one with repa chat or repa run, or pass --space.',
      });
    }
    const { items } = await client.request('session.history', { space, sessionId });
    if (context.json) {
      writeJson(context.stdout, { space, sessionId, items });
      return 0;
    }
    context.stdout.write(`session ${sessionId} in ${space}\n`);
    for (const item of items) {
      const label = item.toolName ? `${item.kind} ${item.toolName}` : item.kind;
      const flag = item.isError ? ' (error)' : '';
      const text = item.text.length > 2_000 ? `${item.text.slice(0, 1_999)}…` : item.text;
      context.stdout.write(`\n[${label}${flag}] ${item.timestamp}\n${text}\n`);
    }
    if (items.length === 0) context.stdout.write('(no history yet)\n');
    return 0;
  },
};

const sessionsNew: Command = {
  words: ['sessions', 'new'],
  summary: 'start a new session in a space',
  usage: 'sessions new [--title TITLE] [--space DIR]',
  help: `Creates a session in a space. It becomes the space's most recent session, so repa chat and
repa run use it from now on.

Options:
  --title TITLE    a human title
${SPACE_HELP}`,
  options: { space: { type: 'string' }, title: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const space = spaceOf(context, str(values.space));
    const title = str(values.title);
    const { session } = await (await context.client()).request('session.create', {
      space,
      ...(title ? { title } : {}),
    });
    if (context.json) writeJson(context.stdout, { session });
    else context.stdout.write(`session ${session.sessionId} created in ${space}\n`);
    return 0;
  },
};

/** `repa sessions list|show|new`. */
export const sessionCommands: Command[] = [sessionsList, sessionsShow, sessionsNew];
