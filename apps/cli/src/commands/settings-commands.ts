import {
  coerceSettingValue,
  type RepaClient,
  RepaError,
  SETTING_ITEMS,
  type SettingItem,
  type SettingItemView,
  type WritableSettingsLevel,
} from '@repa/protocol';
import { writableSettingsLevelSchema } from '@repa/protocol/schemas';
import { type CliContext, listingSpace, spaceOf, writableSpace } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { didYouMean } from '../did-you-mean.js';
import { formatTable, writeJson } from '../format-table.js';
import { sessionOf, sessionOrLatest } from '../resolve-id.js';
import { terminalWidth } from '../style.js';
import { usageError } from '../usage-error.js';

const LEVELS = writableSettingsLevelSchema.options;

/** `--level`, checked. */
function levelOf(level: string | undefined): WritableSettingsLevel | undefined {
  if (level === undefined) return undefined;
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw usageError(
      `Unknown settings level '${level}'.${didYouMean(level, LEVELS)}`,
      `Use --level ${LEVELS.join('|')}.`,
    );
  }
  return level as WritableSettingsLevel;
}

/** A value in a table cell: JSON, shortened. */
function cell(value: unknown): string {
  const text = value === undefined ? '' : JSON.stringify(value);
  return text.length > 48 ? `${text.slice(0, 47)}…` : text;
}

function revisionsOf(item: SettingItemView): string {
  const { application, space, session } = item.revisions;
  return [
    `application ${application}`,
    ...(space === undefined ? [] : [`space ${space}`]),
    ...(session === undefined ? [] : [`session ${session}`]),
  ].join(', ');
}

function writeItems(context: CliContext, items: readonly SettingItemView[]): void {
  context.stdout.write(
    formatTable(
      ['key', 'value', 'source', 'revisions'],
      items.map((item) => [
        item.key,
        cell(item.value),
        item.ignored ? `${item.source} (${item.ignored.levels.join(', ')} ignored)` : item.source,
        revisionsOf(item),
      ]),
      { width: terminalWidth(context.stdout), out: context.stdout },
    ),
  );
  const ignored = items.filter((item) => item.ignored);
  for (const item of ignored) {
    const values = (item.ignored?.levels ?? [])
      .map((level) => `${level} value ${cell(item.overrides[level]?.value)}`)
      .join(' and ');
    context.stdout.write(`ignored: ${item.key}: the ${values}\n`);
  }
  if (ignored[0]?.ignored) context.stdout.write(`why: ${ignored[0].ignored.reason}\n`);
}

/** The setting `key` among `items`, or `not_found` naming the closest key. */
function itemOf(items: readonly SettingItemView[], key: string): SettingItemView {
  const item = items.find((one) => one.key === key);
  if (item) return item;
  const keys = items.map((one) => one.key);
  throw new RepaError('not_found', `There is no setting '${key}'.${didYouMean(key, keys)}`, {
    fix: `Use one of: ${keys.join(', ')}.`,
  });
}

/** `--space` and `--session`: where a setting is read or written. */
interface Scope {
  space?: string | undefined;
  session?: string | undefined;
}

/** The scope of a read: the level's view, or the space with its latest session when one exists. */
async function readScope(
  context: CliContext,
  client: RepaClient,
  values: Scope,
  level: WritableSettingsLevel | undefined,
): Promise<{ space?: string; sessionId?: string }> {
  if (level === 'application') return {};
  const space =
    level === undefined ? listingSpace(context, values.space) : spaceOf(context, values.space);
  if (space === undefined) return {};
  if (level === 'space') return { space };
  if (level === 'session') {
    return { space, sessionId: (await sessionOf(client, space, values.session)).sessionId };
  }
  const session = await sessionOrLatest(client, space, values.session);
  return { space, ...(session ? { sessionId: session.sessionId } : {}) };
}

/** The scope of a write at `level`. */
async function writeScope(
  context: CliContext,
  client: RepaClient,
  values: Scope,
  level: WritableSettingsLevel,
): Promise<{ space?: string; sessionId?: string }> {
  if (level === 'application') return {};
  const space = await writableSpace(context, client, values.space);
  if (level === 'space') return { space };
  const { sessionId } = await sessionOf(client, space, values.session);
  return { space, sessionId };
}

/** `--expected-revision N`, checked. */
function expectedRevisionOf(text: string | undefined): { expectedRevision?: number } {
  if (text === undefined) return {};
  const revision = Number(text);
  if (!Number.isInteger(revision) || revision < 0) {
    throw usageError(
      `--expected-revision must be a whole number, not '${text}'.`,
      'Pass the revision shown by repa settings get.',
    );
  }
  return { expectedRevision: revision };
}

const ITEMS = new Map(SETTING_ITEMS.map((item) => [item.key, item]));

/** `text` in lines of at most `width` columns, each starting with `indent`. */
function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(`${indent}${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, `${indent}${line}`] : lines;
}

const TRUST_NOTE = "a space's or session's value applies once the space is trusted (repa trust)";

/** What `item` takes and does: its values, default, rules, then its description. */
function describeItem(item: SettingItem, width: number): string {
  return [
    `values   ${item.values}`,
    `default  ${JSON.stringify(item.defaultValue)}`,
    ...(item.requiresTrust ? [`trust    ${TRUST_NOTE}`] : []),
    ...(item.appliesAt ? [`level    only the ${item.appliesAt} level's value is read`] : []),
    ...wrap(item.description, width, ''),
  ].join('\n');
}

/** Every setting for `set --help`: key, values and default, then what it does. */
const SETTINGS_HELP = [
  'Settings: KEY (its values; default) and what it does; * marks those whose space or session',
  'value applies only once the space is trusted (repa trust):',
  ...SETTING_ITEMS.flatMap((item) => {
    const facts = [item.values, `default ${JSON.stringify(item.defaultValue)}`];
    if (item.appliesAt) facts.push(`${item.appliesAt} level only`);
    const mark = item.requiresTrust ? ' *' : '';
    return [`  ${item.key}${mark} (${facts.join('; ')})`, ...wrap(item.description, 100, '      ')];
  }),
].join('\n');

const SCOPE_HELP = `  --space DIR      the space (default: the space you are in)
  --session ID     the session (default: the space's most recent session)`;

const WRITE_OPTIONS = {
  space: { type: 'string' },
  session: { type: 'string' },
  level: { type: 'string' },
  'expected-revision': { type: 'string' },
} as const;

const WRITE_HELP = `${SCOPE_HELP}; for --level session it is created
                   when the space has none
  --level LEVEL    application, space or session (default: space)
  --expected-revision N
                   refuse with stale_version unless the level's revision is N`;

const settingsGet = defineCommand({
  words: ['settings', 'get'],
  summary: 'show the settings: value, source level and revisions',
  usage: 'settings get [KEY] [--describe] [--level LEVEL] [--space DIR] [--session ID]',
  help: `Shows every setting (or only KEY) with its effective value, the level it comes from (default,
application, space or session) and the current revision of each level; KEY is then also described:
its values, default and what it does (repa settings set --help lists every setting so).

Options:
  --describe       describe every setting shown: its values, default and what it does
  --level LEVEL    whose view: application (defaults and application values only), space (up
                   to the space), session (up to the session, created when the space has none)
                   (default: the space and its most recent session, when it has one)
${SCOPE_HELP}

With --json: {"items": [SettingItemView…]}, each with value, source, defaultValue, overrides and
revisions.`,
  options: {
    space: { type: 'string' },
    session: { type: 'string' },
    level: { type: 'string' },
    describe: { type: 'boolean' },
  },
  positionals: [0, 1],
  async run(context, [key], values) {
    const level = levelOf(values.level);
    const client = await context.client();
    const scope = await readScope(context, client, values, level);
    const { items } = await client.request('settings.get', scope);
    const shown = key === undefined ? items : [itemOf(items, key)];
    if (context.json) writeJson(context.stdout, { ...scope, items: shown });
    else writeItems(context, shown);
    if (context.json) return 0;
    const width = Math.min(terminalWidth(context.stdout) ?? 100, 100);
    if (key !== undefined || values.describe === true) {
      for (const item of shown) {
        const described = ITEMS.get(item.key);
        if (described) {
          const head = key === undefined ? `\n${item.key}\n` : '\n';
          context.stdout.write(`${head}${describeItem(described, width)}\n`);
        }
      }
    } else {
      context.stdout.write(
        '\nrepa settings get KEY (or --describe) says what a setting does and the values it takes.\n',
      );
    }
    return 0;
  },
});

const settingsSet = defineCommand({
  words: ['settings', 'set'],
  summary: 'set one setting at a level',
  usage: 'settings set KEY VALUE [--level LEVEL] [--space DIR] [--session ID]',
  help: `Stores VALUE as the complete value of KEY at one level, coerced to the setting's type: VALUE is
read as JSON when that gives a value of the type (true, null, ["read"]), else taken as text:
prompts.append 12 sets the string "12", prompts.fileChanges notice the string "notice". An empty
string and false are real values, not "default" (reset removes a value).

Options:
${WRITE_HELP}

Shows the setting afterwards; with --json: {"item": SettingItemView}.

${SETTINGS_HELP}`,
  options: WRITE_OPTIONS,
  positionals: [2, 2],
  async run(context, [key = '', valueText = ''], values) {
    const level = levelOf(values.level) ?? 'space';
    const client = await context.client();
    const scope = await writeScope(context, client, values, level);
    itemOf((await client.request('settings.get', scope)).items, key);
    const { item } = await client
      .request('settings.set', {
        ...scope,
        level,
        key,
        value: coerceSettingValue(key, valueText),
        ...expectedRevisionOf(values['expected-revision']),
      })
      .catch((error: unknown) => {
        throw refusedValue(error, key);
      });
    if (context.json) writeJson(context.stdout, { ...scope, level, item });
    else writeItems(context, [item]);
    if (key === 'model.id') await warnWithoutCredentials(context, client, item.value);
    return 0;
  },
});

/** A value `settings.set` refused, with a fix naming what `key` takes (other errors as they are). */
function refusedValue(error: unknown, key: string): unknown {
  const declared = SETTING_ITEMS.find((one) => one.key === key);
  if (!RepaError.isInstance(error) || error.code !== 'invalid_request' || !declared) return error;
  return new RepaError('invalid_request', error.message, {
    fix: `Give ${key} a value it takes: ${declared.values} (repa settings get ${key} --describe says more).`,
    ...(error.details ? { details: error.details } : {}),
  });
}

/** Says on stderr when the model just set has no credentials yet (spec R72: runs are refused). */
async function warnWithoutCredentials(
  context: CliContext,
  client: RepaClient,
  value: unknown,
): Promise<void> {
  if (typeof value !== 'string') return;
  const { models } = await client.request('models.list', { all: true });
  const model = models.find((one) => one.id === value);
  if (!model || model.credentials) return;
  context.stderr.write(
    `repa: ${value} has no credentials yet: runs on it are refused (auth_failed) until you sign in (repa login ${model.provider}) or add a key (see repa doctor).\n`,
  );
}

const settingsReset = defineCommand({
  words: ['settings', 'reset'],
  summary: "remove one setting's value at a level",
  usage: 'settings reset KEY [--level LEVEL] [--space DIR] [--session ID]',
  help: `Removes the value of KEY stored at one level, so the next weaker level decides again.

Options:
${WRITE_HELP}

Shows the setting afterwards; with --json: {"item": SettingItemView}.`,
  options: WRITE_OPTIONS,
  positionals: [1, 1],
  async run(context, [key = ''], values) {
    const level = levelOf(values.level) ?? 'space';
    const client = await context.client();
    const scope = await writeScope(context, client, values, level);
    const before = itemOf((await client.request('settings.get', scope)).items, key);
    if (before.overrides[level] === undefined && !context.json) {
      context.stderr.write(`repa: ${key} has no value at the ${level} level; nothing to remove.\n`);
    }
    const { item } = await client.request('settings.reset', {
      ...scope,
      level,
      key,
      ...expectedRevisionOf(values['expected-revision']),
    });
    if (context.json) writeJson(context.stdout, { ...scope, level, item });
    else writeItems(context, [item]);
    return 0;
  },
});

/** `repa settings get|set|reset`. */
export const settingsCommands: Command[] = [settingsGet, settingsSet, settingsReset];
