import type { ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { CliContext } from './cli-context.js';

/**
 * The values of the options `O` as `parseArgs` gives them, strictly: a string option's text, a
 * flag's `true`, a `multiple` option's list; absent when not given.
 */
export type OptionValues<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>
>['values'];

/** What a command declares: its words and help, its own options, and how it runs. */
export interface CommandSpec<O extends ParseArgsOptionsConfig> {
  /** The words that name it, e.g. `['settings', 'get']`. */
  words: readonly string[];
  /** One line for the command list. */
  summary: string;
  /** The usage line after `repa`, e.g. `settings get [KEY] [options]`. */
  usage: string;
  /** The rest of its `--help`: what it does, arguments, options, output. */
  help: string;
  /** Its own options (the global ones are added). */
  options: O;
  /** Smallest and largest number of positional arguments. */
  positionals: [min: number, max: number];
  /** Runs it with the values of its own options; resolves with the exit code. */
  run(context: CliContext, args: string[], values: OptionValues<O>): Promise<number>;
}

/** One runnable command of the table, e.g. `repa settings get` ({@link defineCommand}). */
export interface Command extends Omit<CommandSpec<ParseArgsOptionsConfig>, 'run'> {
  /** Runs it with the values parsed against the global options and its own. */
  run(context: CliContext, args: string[], values: Record<string, unknown>): Promise<number>;
}

/** A command whose `run` gets the values of its own option table, typed by that table. */
export function defineCommand<const O extends ParseArgsOptionsConfig>(
  spec: CommandSpec<O>,
): Command {
  return {
    ...spec,
    // `runCli` parses the arguments against these very options (and the global ones).
    run: (context, args, values) => spec.run(context, args, values as OptionValues<O>),
  };
}

/** A word that groups commands (`repa settings …`), with the subcommand used when none is given. */
export interface CommandGroup {
  /** The group's word. */
  word: string;
  /** One line for the command list. */
  summary: string;
  /** The subcommand run when only the group is named; absent: its help is printed. */
  defaultSubcommand?: string;
  /** A line for its help saying what naming only the group does, when no subcommand runs. */
  alone?: string;
}

/** The help lines of the global options, shared by every `--help`. */
export const GLOBAL_OPTIONS_HELP = `Global options:
  --app-dir DIR    Repa's application directory: settings, run ledger, daemon socket and log
                   (default: --agent-dir when given, else $XDG_CONFIG_HOME/repa, else ~/.config/repa)
  --agent-dir DIR  Pi's agent directory with models and credentials (default: ~/.pi/agent)
  --json           print data as JSON on stdout (streams as one JSON object per line)
  -h, --help       show help for the command`;

/** The global options, parsed with every command. */
export const GLOBAL_OPTIONS = {
  'app-dir': { type: 'string' },
  'agent-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

/** `--space` and `--session`, shared by the commands that work in a space. */
export const SPACE_OPTIONS = {
  space: { type: 'string' },
  session: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

/** The help lines of `--space` and `--session`. */
export const SPACE_OPTIONS_HELP = `  --space DIR      the space folder (default: the space you are in)
  --session ID     the session, by id or its first characters (default: the space's most recent
                   session, created when there is none)`;
