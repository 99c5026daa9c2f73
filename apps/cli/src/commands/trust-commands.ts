import type { RestrictedItem } from '@repa/protocol';
import type { CliContext } from '../cli-context.js';
import { writableSpace } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { askConsent } from '../consent.js';
import { writeJson } from '../format-table.js';
import { paint } from '../style.js';

const SPACE_HELP = '  --space DIR      the space (default: the space you are in)';

/** The places restricted items are at, each once, in the items' order (what runs as code first). */
export function restrictedPaths(items: readonly RestrictedItem[]): string[] {
  return [...new Set(items.map((item) => item.path))];
}

/** How a restricted item is named: its path, and the name its settings give it. */
const label = (item: RestrictedItem) => (item.name ? `${item.path} (${item.name})` : item.path);

/**
 * The restricted items, what runs as code first under its own marked heading, each with what it
 * does once the space is trusted and an instruction file's first lines quoted below it.
 */
export function restrictedLines(
  out: CliContext['stdout'],
  items: readonly RestrictedItem[],
): string {
  const code = items.filter((item) => item.runsCode === true);
  const other = items.filter((item) => item.runsCode !== true);
  const lines: string[] = [];
  if (code.length > 0) {
    lines.push(paint(out, ['bold', 'red'], '  Runs as code on your machine with your rights:'));
    for (const item of code)
      lines.push(`  ${paint(out, 'red', '!')} ${label(item)} — ${item.detail}`);
    if (other.length > 0) lines.push('  Also takes effect:');
  }
  for (const item of other) {
    lines.push(`  ${label(item)} — ${item.detail}`);
    for (const line of item.lines ?? []) lines.push(`      | ${line}`);
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** `repa trust` (`trusted`) and `repa untrust` with their `--space` and `--yes`. */
async function setTrust(
  context: CliContext,
  values: { space?: string | undefined; yes?: boolean | undefined },
  trusted: boolean,
) {
  const client = await context.client();
  const named = values.space;
  const space = await writableSpace(context, client, named);
  if (trusted) {
    const { space: info } = await client.request('space.open', { root: space });
    const items = info.restricted ?? [];
    if (info.trusted && !context.json) {
      // A learner who types `repa trust` in a folder Repa trusted by itself is told why it was.
      const why =
        info.trustReason === 'created'
          ? ' (Repa made this folder a space itself: it held nothing that trusting turns on)'
          : '';
      context.stdout.write(`already trusted: ${info.root}${why}\n`);
      return 0;
    }
    if (!info.trusted) {
      const code = items.some((item) => item.runsCode === true);
      if (!context.json) {
        context.stdout.write(
          items.length === 0
            ? `${info.root} holds nothing that trusting it would turn on now.\n`
            : `Trusting ${info.root} lets what it holds take effect:\n${restrictedLines(context.stdout, items)}`,
        );
      }
      const again = `repa trust${named === undefined ? '' : ` --space ${named}`} --yes`;
      await askConsent(context, {
        question: code ? 'Trust this space and let its code run?' : 'Trust this space?',
        defaultYes: !code,
        yes: values.yes === true,
        unasked: {
          message: 'Without a terminal to ask on, trusting a space needs --yes.',
          fix: `Look at what it holds (listed above, or repa trust on a terminal), then run ${again}.`,
        },
        declined: {
          message: 'The space was not trusted; nothing changed.',
          fix: `Look at the files listed, then run repa trust again (or ${again}) when you want them to take effect.`,
        },
      });
    }
  }
  const result = await client.request('space.trust', { space, trusted });
  if (context.json) {
    writeJson(context.stdout, result);
    return 0;
  }
  const already = result.wasTrusted === trusted;
  const items = result.restricted ?? [];
  context.stdout.write(
    trusted
      ? `trusted: ${result.space}\n`
      : `${already ? 'was not trusted' : 'no longer trusted'}: ${result.space}\n${
          items.length === 0
            ? ''
            : `From the next run on, these have no effect:\n${restrictedLines(context.stdout, items)}`
        }`,
  );
  return 0;
}

const RESTRICTED_HELP = `A space is restricted until you trust it: its own Pi settings, packages and extensions (.pi/),
skills (.pi/skills, .agents/skills), instruction files (AGENTS.md, CLAUDE.md), the Repa settings it
carries that change tools, model, thinking level or prompt text, a learning context Repa did not
write there and sessions Repa did not start there all have no effect, and none of its code runs.
A folder Repa itself makes a space starts trusted: one that had no .repa/ folder and none of the
files above when Repa first opened it. Any other folder (a course folder someone shared, a
classmate's notes, a downloaded archive) starts restricted. Trust is kept in the app directory
(trusted-spaces.json).`;

const trustCommand = defineCommand({
  words: ['trust'],
  summary: 'trust a space: let its own settings, skills and instructions take effect',
  usage: 'trust [--space DIR] [--yes]',
  help: `Shows what the space holds that trusting it would turn on, then records the trust from the next
run on. First, marked with !, what would run as code on your machine with your rights: each
extension Pi loads from .pi/extensions and each package, extension or npm command named in
.pi/settings.json. Then Pi's settings, each skill and prompt template by name, and the first lines
of the instruction file Pi reads (AGENTS.md, CLAUDE.md). Nothing of the space is run to list it.

On a terminal it asks (Enter is no when the space holds code); without a terminal, or with
--json, it trusts nothing unless you pass --yes (exit 2 otherwise). Project instruction files
reach the model when prompts.projectInstructions is true as well (default false).

${RESTRICTED_HELP}

Options:
${SPACE_HELP}
  --yes            trust without asking (needed without a terminal)`,
  options: { space: { type: 'string' }, yes: { type: 'boolean' } },
  positionals: [0, 0],
  run: (context, _args, values) => setTrust(context, values, true),
});

const untrustCommand = defineCommand({
  words: ['untrust'],
  summary: 'withdraw the trust of a space (restrict it)',
  usage: 'untrust [--space DIR]',
  help: `Withdraws the trust of a space from the next run on, and lists what then has no effect.

${RESTRICTED_HELP}

Options:
${SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [0, 0],
  run: (context, _args, values) => setTrust(context, values, false),
});

/** `repa trust` and `repa untrust`. */
export const trustCommands: Command[] = [trustCommand, untrustCommand];
