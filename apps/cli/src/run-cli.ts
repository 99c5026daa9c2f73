import { resolveAppDirectory } from '@repa/protocol/node';
import { chatCommand } from './chat/chat-command.js';
import { createCliContext } from './cli-context.js';
import {
  type Command,
  type CommandGroup,
  GLOBAL_OPTIONS,
  GLOBAL_OPTIONS_HELP,
  type OptionValues,
} from './command.js';
import { completionCommands } from './commands/completion-command.js';
import { contextCommands } from './commands/context-command.js';
import { daemonCommands } from './commands/daemon-commands.js';
import { demoCommands } from './commands/demo-command.js';
import { doctorCommands } from './commands/doctor-command.js';
import { loginCommands } from './commands/login-command.js';
import { materialsCommands } from './commands/materials-commands.js';
import { modelsCommands } from './commands/models-command.js';
import { packagesCommands } from './commands/packages-commands.js';
import { runCommands } from './commands/runs/index.js';
import { sessionCommands } from './commands/session-commands.js';
import { settingsCommands } from './commands/settings-commands.js';
import { studyCommands } from './commands/study/index.js';
import { trustCommands } from './commands/trust-commands.js';
import { webCommands } from './commands/web-command.js';
import { didYouMean } from './did-you-mean.js';
import { parseOptions } from './parse-options.js';
import { isUsageError, usageError } from './usage-error.js';
import { writeError } from './write-error.js';

const COMMANDS: Command[] = [
  ...runCommands.slice(0, 1),
  chatCommand,
  ...runCommands.slice(1),
  ...settingsCommands,
  ...sessionCommands,
  ...contextCommands,
  ...materialsCommands,
  ...studyCommands,
  ...trustCommands,
  ...daemonCommands,
  ...doctorCommands,
  ...modelsCommands,
  ...packagesCommands,
  ...loginCommands,
  ...demoCommands,
  ...webCommands,
];
COMMANDS.push(...completionCommands(() => ({ commands: COMMANDS, groups: GROUPS })));

const GROUPS: CommandGroup[] = [
  {
    word: 'settings',
    summary: 'show and change prompt and model settings',
    defaultSubcommand: 'get',
  },
  {
    word: 'sessions',
    summary: 'list, show, rename, compact, export and delete the sessions of a space',
    defaultSubcommand: 'list',
  },
  {
    word: 'runs',
    summary: 'list, show, cancel, retry, resume and prune runs',
    defaultSubcommand: 'list',
  },
  {
    word: 'context',
    summary: "show, write or edit a space's learning context",
    defaultSubcommand: 'show',
  },
  {
    word: 'materials',
    summary: 'grant outside files (PDFs, books, papers) to spaces, list and withdraw them',
    defaultSubcommand: 'list',
  },
  {
    word: 'study',
    summary:
      'study cards in your notes: review them, draft them from a passage, list due cards, rate them, see progress, export to Anki',
    defaultSubcommand: 'review',
  },
  { word: 'daemon', summary: 'start, stop and check the daemon', defaultSubcommand: 'status' },
  { word: 'packages', summary: 'list, add and remove Pi packages', defaultSubcommand: 'list' },
];

/** The streams and environment of one invocation. */
export interface CliIo {
  /** The CLI's version. */
  version: string;
  /** The working directory. */
  cwd: string;
  /** Standard input. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Standard output. */
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Standard error. */
  stderr: NodeJS.WritableStream;
}

function mainHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((command) => command.words.join(' ').length));
  const lines = COMMANDS.map(
    (command) => `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`,
  );
  return `repa ${version}: talk to an agent inside a space, a folder of documents with a learning context.

Usage: repa [global options] <command> [options] [arguments]

Commands:
${lines.join('\n')}

${GLOBAL_OPTIONS_HELP}
  --version        print the version

Commands that need the daemon start it in the background for the app directory. Each command has
--help. A command works in the space you are in: the nearest folder up from the current directory
that holds a .repa/ folder (as git finds its repository, but never your home folder or / above
it), else the current directory; --space DIR names another. Your home folder, / and a folder
holding Pi's or Repa's configuration become a space only when named with --space. Start with:
repa demo, then repa chat in a folder of your notes.
On a terminal output is coloured (NO_COLOR turns it off, FORCE_COLOR on for a pipe); with --json an
error is one {"kind":"error","code",…} line on stdout. Exit codes: 0 done, 1 failed, 2 usage error,
130 cancelled.
`;
}

function groupHelp(group: CommandGroup): string {
  const commands = COMMANDS.filter((command) => command.words[0] === group.word);
  const width = Math.max(...commands.map((command) => command.usage.length));
  return `repa ${group.word}: ${group.summary}.

Usage:
${commands.map((command) => `  repa ${command.usage.padEnd(width)}  ${command.summary}`).join('\n')}

${group.defaultSubcommand === undefined ? (group.alone ?? '') : `Without a subcommand: repa ${group.word} ${group.defaultSubcommand}.`} Each subcommand has --help.

${GLOBAL_OPTIONS_HELP}
`;
}

function commandHelp(command: Command): string {
  return `Usage: repa ${command.usage}

${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.

${command.help}

${GLOBAL_OPTIONS_HELP}
`;
}

const GLOBAL_WITH_VALUE = new Set(['--app-dir', '--agent-dir']);

/** Splits the arguments into the command words and the rest (options may come before them). */
function locate(args: readonly string[]): { words: string[]; rest: string[] } {
  const rest: string[] = [];
  let index = 0;
  while (index < args.length) {
    const arg = args[index] as string;
    if (arg === '--') break;
    if (GLOBAL_WITH_VALUE.has(arg)) {
      rest.push(arg, ...(args[index + 1] === undefined ? [] : [args[index + 1] as string]));
      index += 2;
    } else if (arg.startsWith('-') && arg !== '-') {
      rest.push(arg);
      index += 1;
    } else break;
  }
  const words: string[] = [];
  const first = args[index];
  if (first !== undefined && first !== '--') {
    words.push(first);
    index += 1;
    const next = args[index];
    if (
      GROUPS.some((group) => group.word === first) &&
      next !== undefined &&
      !next.startsWith('-')
    ) {
      words.push(next);
      index += 1;
    }
  }
  return { words, rest: [...rest, ...args.slice(index)] };
}

/** The top-level words: commands and groups. */
function topWords(): string[] {
  return [...new Set(COMMANDS.map((command) => command.words[0] as string)), 'help'];
}

/** `--json` among the options (before `--`): errors are then printed as JSON on stdout. */
function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/**
 * Runs one `repa` invocation and resolves with its exit code: 0 done, 1 failed, 2 usage error,
 * 130 cancelled. Errors are printed as `repa: <message> (<code>)` and `Fix: <fix>` on stderr, or
 * with `--json` as one `{"kind":"error","code","message","fix"}` line on stdout.
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  let context: ReturnType<typeof createCliContext> | undefined;
  try {
    const { words, rest } = locate(args);
    const [word, sub] = words;
    if (word === undefined || word === 'help') {
      const global = parseOptions(
        rest,
        { ...GLOBAL_OPTIONS, version: { type: 'boolean' } },
        'repa --help',
      );
      if (global.values.version) {
        io.stdout.write(`${io.version}\n`);
        return 0;
      }
      const topic = word === 'help' ? global.positionals.join(' ') : '';
      const group = GROUPS.find((candidate) => candidate.word === topic);
      const command = COMMANDS.find((candidate) => candidate.words.join(' ') === topic);
      if (topic !== '' && !group && !command) {
        throw usageError(
          `Unknown command '${topic}'.${didYouMean(topic, [...topWords(), ...COMMANDS.map((one) => one.words.join(' '))])}`,
          "Run 'repa --help' to see the commands.",
        );
      }
      io.stdout.write(
        group ? groupHelp(group) : command ? commandHelp(command) : mainHelp(io.version),
      );
      return 0;
    }
    const group = GROUPS.find((candidate) => candidate.word === word);
    let command: Command | undefined;
    if (group) {
      const help = rest.includes('--help') || rest.includes('-h');
      if (sub === undefined && (help || group.defaultSubcommand === undefined)) {
        io.stdout.write(groupHelp(group));
        return 0;
      }
      // Without a default subcommand, naming only the group printed its help above.
      const name = sub ?? (group.defaultSubcommand as string);
      command = COMMANDS.find((candidate) => candidate.words.join(' ') === `${word} ${name}`);
      if (!command) {
        const subs = COMMANDS.filter((one) => one.words[0] === word).map((one) => one.words[1]);
        throw usageError(
          `Unknown command 'repa ${word} ${name}'.${didYouMean(name, subs as string[], `repa ${word} `)}`,
          `Run 'repa ${word} --help' to see its subcommands.`,
        );
      }
    } else {
      command = COMMANDS.find((candidate) => candidate.words.join(' ') === word);
      if (!command) {
        throw usageError(
          `Unknown command '${word}'.${didYouMean(word, topWords())}`,
          "Run 'repa --help' to see the commands.",
        );
      }
    }
    const { values, positionals } = parseOptions(
      rest,
      { ...command.options, ...GLOBAL_OPTIONS },
      `repa ${command.words.join(' ')} --help`,
    );
    // The global options come last in the table parsed, so they are what GLOBAL_OPTIONS says.
    const global = values as OptionValues<typeof GLOBAL_OPTIONS>;
    if (global.help) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    const [min, max] = command.positionals;
    if (positionals.length < min || positionals.length > max) {
      throw usageError(
        positionals.length < min
          ? `Missing arguments: repa ${command.usage}`
          : `Unexpected argument '${positionals[max]}'.`,
        `Run 'repa ${command.words.join(' ')} --help'.`,
      );
    }
    const agentDir = global['agent-dir'];
    context = createCliContext({
      version: io.version,
      appDirectory: resolveAppDirectory({ appDirectory: global['app-dir'], agentDir }),
      agentDir,
      json: global.json === true,
      cwd: io.cwd,
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
    });
    return await command.run(context, positionals, values);
  } catch (error) {
    writeError(io.stderr, error, wantsJson(args) ? { stdout: io.stdout } : undefined);
    return isUsageError(error) ? 2 : 1;
  } finally {
    await context?.close();
  }
}
