import type { ParseArgsOptionsConfig } from 'node:util';
import type { CliContext } from './cli-context.js';

/** The parsed options of a command: strings and booleans by long name. */
export type OptionValues = Record<string, string | boolean | undefined>;

/** One runnable command, e.g. `repa settings get`. */
export interface Command {
  /** The words that name it, e.g. `['settings', 'get']`. */
  words: readonly string[];
  /** One line for the command list. */
  summary: string;
  /** The usage line after `repa`, e.g. `settings get [KEY] [options]`. */
  usage: string;
  /** The rest of its `--help`: what it does, arguments, options, output. */
  help: string;
  /** Its own options (the global ones are added). */
  options: ParseArgsOptionsConfig;
  /** Smallest and largest number of positional arguments. */
  positionals: [min: number, max: number];
  /** Runs it; resolves with the exit code. */
  run(context: CliContext, args: string[], values: OptionValues): Promise<number>;
}

/** A word that groups commands (`repa settings …`), with the subcommand used when none is given. */
export interface CommandGroup {
  /** The group's word. */
  word: string;
  /** One line for the command list. */
  summary: string;
  /** The subcommand run when only the group is named. */
  defaultSubcommand: string;
}

/** The help lines of the global options, shared by every `--help`. */
export const GLOBAL_OPTIONS_HELP = `Global options:
  --app-dir DIR    Repa's application directory: settings, run ledger, daemon socket and log
                   (default: --agent-dir when given, else $XDG_CONFIG_HOME/repa, else ~/.config/repa)
  --agent-dir DIR  Pi's agent directory with models and credentials (default: ~/.pi/agent)
  --json           print data as JSON on stdout (streams as one JSON object per line)
  -h, --help       show help for the command`;

/** The global options, parsed with every command. */
export const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
  'app-dir': { type: 'string' },
  'agent-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** `--space` and `--session`, shared by the commands that work in a space. */
export const SPACE_OPTIONS: ParseArgsOptionsConfig = {
  space: { type: 'string' },
  session: { type: 'string' },
};

/** The help lines of `--space` and `--session`. */
export const SPACE_OPTIONS_HELP = `  --space DIR      the space folder (default: the space you are in)
  --session ID     the session, by id or its first characters (default: the space's most recent
                   session, created when there is none)`;
