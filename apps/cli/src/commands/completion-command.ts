import { SETTING_ITEMS } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import {
  runStatusSchema,
  thinkingLevelSchema,
  writableSettingsLevelSchema,
} from '@repa/protocol/schemas';
import { type CliContext, spaceOf } from '../cli-context.js';
import type { Command, CommandGroup } from '../command.js';
import { defineCommand, GLOBAL_OPTIONS } from '../command.js';
import { usageError } from '../usage-error.js';

/** The command table the completion is generated from. */
interface CommandTable {
  commands: readonly Command[];
  groups: readonly CommandGroup[];
}

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** Options whose value is a folder or a file; the others with a fixed set of values. */
const DIRECTORY_OPTIONS = new Set(['space', 'app-dir', 'agent-dir']);
const FILE_OPTIONS = new Set(['file']);
/** Values read from the running daemon when completed: `repa completion models|sessions`. */
const LIVE = ['models', 'sessions'] as const;
type Live = (typeof LIVE)[number];
const VALUE_CHOICES: Record<string, readonly string[]> = {
  level: writableSettingsLevelSchema.options,
  status: runStatusSchema.options,
  thinking: thinkingLevelSchema.options,
  model: [':models'],
  session: [':sessions'],
};
const SETTING_KEYS = SETTING_ITEMS.map((item) => item.key);
const POSITIONAL_CHOICES: Record<string, readonly string[]> = {
  completion: SHELLS,
  'settings get': SETTING_KEYS,
  'settings set': SETTING_KEYS,
  'settings reset': SETTING_KEYS,
  ...Object.fromEntries(
    ['show', 'export', 'rename', 'compact', 'delete'].map((sub) => [
      `sessions ${sub}`,
      [':sessions'],
    ]),
  ),
};

interface Entry {
  /** `run`, `runs list`. */
  key: string;
  summary: string;
  /** Long options with their value kind. */
  options: { name: string; value: 'none' | 'dirs' | 'files' | 'text' | readonly string[] }[];
}

function entriesOf(table: CommandTable): Entry[] {
  return table.commands.map((command) => ({
    key: command.words.join(' '),
    summary: command.summary,
    options: Object.entries({ ...GLOBAL_OPTIONS, ...command.options }).map(([name, config]) => ({
      name,
      value:
        config.type === 'boolean'
          ? 'none'
          : DIRECTORY_OPTIONS.has(name)
            ? 'dirs'
            : FILE_OPTIONS.has(name)
              ? 'files'
              : (VALUE_CHOICES[name] ?? 'text'),
    })),
  }));
}

function topLevel(table: CommandTable): string[] {
  return [...new Set(table.commands.map((command) => command.words[0] as string)), 'help'];
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/**
 * A POSIX-shell function (bash and zsh) printing the candidates, one per line, for the words
 * typed so far (`$@`, without `repa` and the current word); `:dirs`/`:files` ask for paths.
 */
function candidatesFunction(table: CommandTable): string {
  const entries = entriesOf(table);
  const groups = table.groups.map((group) => group.word);
  const valueCases = entries
    .flatMap((entry) => entry.options)
    .filter((option, index, all) => all.findIndex((one) => one.name === option.name) === index)
    .filter((option) => option.value !== 'none')
    .map((option) => {
      const { value } = option;
      const out =
        value === 'dirs'
          ? "echo ':dirs'"
          : value === 'files'
            ? "echo ':files'"
            : value === 'text' || value === 'none'
              ? ':'
              : `printf '%s\\n' ${value.join(' ')}`;
      return `    --${option.name}) ${out}; return ;;`;
    });
  const optionCases = entries.map(
    (entry) =>
      `    ${quote(entry.key)}) printf '%s\\n' ${entry.options.map((option) => `--${option.name}`).join(' ')} ;;`,
  );
  const subCases = table.groups.map(
    (group) =>
      `    ${group.word}) printf '%s\\n' ${table.commands
        .filter((command) => command.words[0] === group.word)
        .map((command) => command.words[1])
        .join(' ')} ;;`,
  );
  const positionalCases = Object.entries(POSITIONAL_CHOICES).map(
    ([key, values]) => `    ${quote(key)}) printf '%s\\n' ${values.join(' ')} ;;`,
  );
  const takesValue = [
    ...new Set(
      entries
        .flatMap((entry) => entry.options)
        .filter((option) => option.value !== 'none')
        .map((option) => `--${option.name}`),
    ),
  ];
  return `__repa_candidates() {
  local __repa_cur="$1"; shift
  local __repa_cmd='' __repa_sub='' __repa_prev='' __repa_args=0 __repa_word __repa_key
  for __repa_word in "$@"; do
    case "$__repa_prev" in
      ${takesValue.join('|')}) __repa_prev=''; continue ;;
    esac
    __repa_prev="$__repa_word"
    case "$__repa_word" in
      -*) continue ;;
    esac
    if [ -z "$__repa_cmd" ]; then __repa_cmd="$__repa_word"
    elif [ -z "$__repa_sub" ] && case " ${groups.join(' ')} " in *" $__repa_cmd "*) true ;; *) false ;; esac; then __repa_sub="$__repa_word"
    else __repa_args=$((__repa_args + 1)); fi
  done
  case "$__repa_prev" in
${valueCases.join('\n')}
  esac
  case "$__repa_prev" in
    ${takesValue.join('|')}) return ;;
  esac
  __repa_key="$__repa_cmd"
  [ -n "$__repa_sub" ] && __repa_key="$__repa_cmd $__repa_sub"
  case "$__repa_cur" in
    -*)
      case "$__repa_key" in
${optionCases.map((line) => `    ${line}`).join('\n')}
        *) printf '%s\\n' ${Object.keys(GLOBAL_OPTIONS)
          .map((name) => `--${name}`)
          .join(' ')} --version ;;
      esac
      return ;;
  esac
  if [ -z "$__repa_cmd" ]; then printf '%s\\n' ${topLevel(table).join(' ')}; return; fi
  if [ -z "$__repa_sub" ]; then
    case "$__repa_cmd" in
${subCases.map((line) => `  ${line}`).join('\n')}
      help) printf '%s\\n' ${topLevel(table)
        .filter((word) => word !== 'help')
        .join(' ')} ;;
    esac
  fi
  if [ "$__repa_args" = 0 ]; then
    case "$__repa_key" in
${positionalCases.map((line) => `  ${line}`).join('\n')}
    esac
  fi
}`;
}

function bashScript(table: CommandTable): string {
  return `# repa completion for bash: eval "$(repa completion bash)", e.g. in ~/.bashrc
${candidatesFunction(table)}
_repa() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" line candidates
  candidates="$(__repa_candidates "$cur" "\${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  COMPREPLY=()
  case "$candidates" in
    :dirs) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
    :files) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
    :models|:sessions) candidates="$(command repa completion "\${candidates#:}" 2>/dev/null)" ;;
  esac
  mapfile -t COMPREPLY < <(compgen -W "$candidates" -- "$cur")
}
complete -o default -F _repa repa
`;
}

function zshScript(table: CommandTable): string {
  return `#compdef repa
# repa completion for zsh: eval "$(repa completion zsh)", e.g. in ~/.zshrc (after compinit)
${candidatesFunction(table)}
_repa() {
  local candidates
  candidates="$(__repa_candidates "\${words[CURRENT]}" "\${(@)words[2,CURRENT-1]}")"
  case "$candidates" in
    :dirs) _files -/; return ;;
    :files) _files; return ;;
    :models|:sessions) candidates="$(command repa completion "\${candidates#:}" 2>/dev/null)" ;;
  esac
  compadd -- \${(f)candidates}
}
compdef _repa repa
`;
}

/** Fish's `-a` argument for `values`: a live kind asks `repa completion KIND` when completed. */
function fishValues(values: readonly string[]): string {
  const [first = ''] = values;
  return first.startsWith(':')
    ? `(repa completion ${first.slice(1)} 2>/dev/null)`
    : values.join(' ');
}

/**
 * The model ids (with credentials) or the current space's session ids the running daemon knows,
 * one a line; nothing when no daemon runs (completing never starts one).
 */
async function liveValues(context: CliContext, kind: Live): Promise<string[]> {
  const client = createRepaClient({ socketPath: daemonPaths(context.appDirectory).socketPath });
  try {
    await client.connect();
    if (kind === 'models') {
      const { models } = await client.request('models.list', {});
      return models.filter((model) => model.credentials).map((model) => model.id);
    }
    const { sessions } = await client.request('session.list', {
      space: spaceOf(context, undefined),
    });
    return sessions.map((session) => session.sessionId);
  } catch {
    return [];
  } finally {
    await client.close().catch(() => undefined);
  }
}

function fishScript(table: CommandTable): string {
  const entries = entriesOf(table);
  const groups = table.groups.map((group) => group.word);
  const lines = [
    '# repa completion for fish: repa completion fish > ~/.config/fish/completions/repa.fish',
    'complete -c repa -f',
  ];
  const tops = [...new Set(table.commands.map((command) => command.words[0] as string))];
  for (const word of tops) {
    const group = table.groups.find((one) => one.word === word);
    const summary =
      group?.summary ?? table.commands.find((command) => command.words[0] === word)?.summary ?? '';
    lines.push(`complete -c repa -n __fish_use_subcommand -a ${word} -d ${quote(summary)}`);
  }
  for (const group of table.groups) {
    const subs = table.commands.filter((command) => command.words[0] === group.word);
    for (const sub of subs) {
      lines.push(
        `complete -c repa -n ${quote(`__fish_seen_subcommand_from ${group.word}; and not __fish_seen_subcommand_from ${subs.map((one) => one.words[1]).join(' ')}`)} -a ${sub.words[1]} -d ${quote(sub.summary)}`,
      );
    }
  }
  for (const entry of entries) {
    const [word, sub] = entry.key.split(' ');
    const condition =
      sub === undefined
        ? groups.includes(word as string)
          ? undefined
          : `__fish_seen_subcommand_from ${word}`
        : `__fish_seen_subcommand_from ${word}; and __fish_seen_subcommand_from ${sub}`;
    if (condition === undefined) continue;
    for (const option of entry.options) {
      const value =
        option.value === 'none'
          ? ''
          : option.value === 'dirs'
            ? " -x -a '(__fish_complete_directories)'"
            : option.value === 'files'
              ? ' -r -F'
              : option.value === 'text'
                ? ' -x'
                : ` -x -a ${quote(fishValues(option.value))}`;
      lines.push(`complete -c repa -n ${quote(condition)} -l ${option.name}${value}`);
    }
  }
  for (const [key, values] of Object.entries(POSITIONAL_CHOICES)) {
    const condition = key
      .split(' ')
      .map((word) => `__fish_seen_subcommand_from ${word}`)
      .join('; and ');
    lines.push(`complete -c repa -n ${quote(condition)} -a ${quote(fishValues(values))}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `repa completion bash|zsh|fish`, generated from the command table so it stays true. */
export function completionCommands(table: () => CommandTable): Command[] {
  return [
    defineCommand({
      words: ['completion'],
      summary: 'print the shell completion script for bash, zsh or fish',
      usage: 'completion bash|zsh|fish|models|sessions',
      help: `Prints a completion script for commands, subcommands, options and their values, made from
the same command table as --help: setting keys, and the model ids and session ids the running
daemon knows (the scripts ask \`repa completion models\` and \`repa completion sessions\`, which
print them, one a line, and nothing when no daemon runs).

  bash   eval "$(repa completion bash)"          (add the line to ~/.bashrc)
  zsh    eval "$(repa completion zsh)"           (in ~/.zshrc, after compinit)
  fish   repa completion fish > ~/.config/fish/completions/repa.fish`,
      options: {},
      positionals: [1, 1],
      async run(context, [shell = '']) {
        if ((LIVE as readonly string[]).includes(shell)) {
          for (const value of await liveValues(context, shell as Live)) {
            context.stdout.write(`${value}\n`);
          }
          return 0;
        }
        if (!(SHELLS as readonly string[]).includes(shell)) {
          throw usageError(
            `Unknown shell '${shell}'.`,
            `Use one of: ${SHELLS.join(', ')} (or models, sessions for their values).`,
          );
        }
        const make = { bash: bashScript, zsh: zshScript, fish: fishScript }[shell as Shell];
        context.stdout.write(make(table()));
        return 0;
      },
    }),
  ];
}
