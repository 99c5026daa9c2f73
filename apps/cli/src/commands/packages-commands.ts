import { resolve } from 'node:path';
import type { PackageLevel, PackageResource, RepaClient, ResourceDiagnostic } from '@repa/protocol';
import type { CliContext } from '../cli-context.js';
import { listingSpace, writableSpace } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { writeJson } from '../format-table.js';
import { usageError } from '../usage-error.js';

const LEVEL_HELP = `  --level LEVEL    application (default: your own Pi settings, every space) or space (this
                   space's .pi/settings.json; the space must be trusted: repa trust)
  --space DIR      the space (default: the current directory)`;

/** One line per diagnostic, indented, for `repa packages list` and `repa doctor`. */
export function diagnosticLines(diagnostics: readonly ResourceDiagnostic[]): string {
  return diagnostics
    .map(
      (item) =>
        `  ${item.severity} ${item.kind}${item.path ? ` ${item.path}` : ''}: ${item.message}\n`,
    )
    .join('');
}

/** `--level`, checked (default: application). */
function levelOf(level = 'application'): PackageLevel {
  if (level !== 'application' && level !== 'space') {
    throw usageError(
      `--level must be application or space, not ${String(level)}.`,
      "Use --level application (your own Pi settings) or --level space (this space's).",
    );
  }
  return level;
}

/**
 * The source as the daemon needs it: a local folder made absolute against the directory the
 * command was typed in, whether or not it exists (a missing one is the daemon's `not_found`);
 * Pi's own prefixes are kept.
 */
function sourceOf(context: CliContext, source: string): string {
  if (/^(npm|git|github|https?|ssh):/.test(source)) return source;
  return resolve(context.cwd, source);
}

/** What `packages add` and `remove` change: the source, at `--level` (in `--space`). */
async function changeOf(
  context: CliContext,
  client: RepaClient,
  args: string[],
  values: { level?: string | undefined; space?: string | undefined },
) {
  const level = levelOf(values.level);
  const space = values.space;
  return {
    source: sourceOf(context, args[0] ?? ''),
    level,
    ...(level === 'space' ? { space: await writableSpace(context, client, space) } : {}),
  };
}

function resourceLine(item: PackageResource): string {
  return `  ${item.kind.padEnd(9)} ${item.name}  (${item.level}: ${item.source})\n`;
}

const list = defineCommand({
  words: ['packages', 'list'],
  summary: 'list the Pi packages Repa loads, with what they bring',
  usage: 'packages list [--space DIR]',
  help: `Lists the Pi packages configured in your own Pi settings and, in a trusted space, in the
space's .pi/settings.json; then what a new run there loads from them (extensions, the tools they
register, skills and prompt templates) and Pi's loading diagnostics, including extensions Repa
refuses because they register one of its own tools (read, write, edit, apply_patch, ls, find, grep,
bash). A package's tools are off until tools.enabled names them, e.g.
  repa settings set tools.enabled '["read","grep","flashcard_export"]'

Options:
  --space DIR      the space (default: the current directory)`,
  options: { space: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const client = await context.client();
    // Nothing is made a space by listing: a folder that is not a trusted space lists no own packages.
    const space = listingSpace(context, values.space);
    const result = await client.request('packages.list', space ? { space } : {});
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    const out = context.stdout;
    if (result.packages.length === 0) out.write('No Pi packages are configured.\n');
    for (const item of result.packages) {
      out.write(
        `${item.level.padEnd(12)} ${item.source}${item.installedPath ? '' : ' (not installed)'}\n`,
      );
    }
    if (result.resources.length > 0) {
      out.write(`\nA new run here loads:\n${result.resources.map(resourceLine).join('')}`);
    }
    if (result.diagnostics.length > 0) {
      out.write(`\nProblems:\n${diagnosticLines(result.diagnostics)}`);
    }
    return 0;
  },
});

const add = defineCommand({
  words: ['packages', 'add'],
  summary: "install a Pi package through Pi's package manager",
  usage: 'packages add SOURCE [--level application|space] [--space DIR]',
  help: `Installs a Pi package through Pi's package manager and adds it to Pi's settings: a local
folder (works offline), npm:NAME[@VERSION] or a git URL. Repa keeps Pi offline by default, so npm
and git sources are refused with "offline" unless the daemon was started with PI_OFFLINE=0. Each
session loads the package at its next run; its tools stay off until tools.enabled names them.

Options:
${LEVEL_HELP}`,
  options: { level: { type: 'string' }, space: { type: 'string' } },
  positionals: [1, 1],
  async run(context, args, values) {
    const client = await context.client();
    const result = await client.request(
      'packages.add',
      await changeOf(context, client, args, values),
    );
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    context.stdout.write(
      `${result.added ? 'added' : 'already configured'}: ${result.package.source} (${result.package.level})\nEach session loads it at its next run; see what it brings with repa packages list.\n`,
    );
    return 0;
  },
});

const remove = defineCommand({
  words: ['packages', 'remove'],
  summary: "remove a Pi package through Pi's package manager",
  usage: 'packages remove SOURCE [--level application|space] [--space DIR]',
  help: `Removes a Pi package through Pi's package manager and from Pi's settings. A run under way
finishes with what its session loaded; each session's next run starts without the package.

Options:
${LEVEL_HELP}`,
  options: { level: { type: 'string' }, space: { type: 'string' } },
  positionals: [1, 1],
  async run(context, args, values) {
    const client = await context.client();
    const change = await changeOf(context, client, args, values);
    const result = await client.request('packages.remove', change);
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    const running =
      result.activeRuns > 0
        ? ` ${result.activeRuns} run${result.activeRuns === 1 ? '' : 's'} under way finish with it.`
        : '';
    context.stdout.write(
      result.removed
        ? `removed: ${change.source} (${change.level}).${running} Each session's next run starts without it.\n`
        : `not configured at the ${change.level} level: ${change.source} (repa packages list shows what is).\n`,
    );
    return 0;
  },
});

/** `repa packages list|add|remove`. */
export const packagesCommands: Command[] = [list, add, remove];
