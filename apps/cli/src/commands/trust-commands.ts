import { createInterface } from 'node:readline/promises';
import { RepaError, type RestrictedItem } from '@repa/protocol';
import type { CliContext } from '../cli-context.js';
import { spaceOf } from '../cli-context.js';
import type { Command, OptionValues } from '../command.js';
import { writeJson } from '../format-table.js';

const SPACE_HELP = '  --space DIR      the space (default: the space you are in)';

/** One line per restricted item: its path and what it does once the space is trusted. */
export function restrictedLines(items: readonly RestrictedItem[]): string {
  return items.map((item) => `  ${item.path} — ${item.detail}\n`).join('');
}

async function confirmTrust(context: CliContext, values: OptionValues): Promise<void> {
  const terminal = context.stdin.isTTY === true && context.stdout.isTTY === true;
  if (!terminal || context.json || values.yes === true) return;
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  try {
    const answer = await prompt.question('Trust this space? [y/N] ');
    if (/^\s*(y|yes)\s*$/i.test(answer)) return;
  } finally {
    prompt.close();
  }
  throw new RepaError('cancelled', 'The space was not trusted; nothing changed.', {
    fix: 'Look at the files listed, then run repa trust again when you want them to take effect.',
  });
}

async function setTrust(context: CliContext, values: OptionValues, trusted: boolean) {
  const space = spaceOf(context, typeof values.space === 'string' ? values.space : undefined);
  const client = await context.client();
  if (trusted && !context.json) {
    const { space: info } = await client.request('space.open', { root: space });
    const items = info.restricted ?? [];
    if (info.trusted) {
      context.stdout.write(`already trusted: ${info.root}\n`);
      return 0;
    }
    context.stdout.write(
      items.length === 0
        ? `${info.root} holds nothing that trusting it would turn on.\n`
        : `Trusting ${info.root} lets what it holds take effect:\n${restrictedLines(items)}`,
    );
    await confirmTrust(context, values);
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
            : `From the next run on, these have no effect:\n${restrictedLines(items)}`
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

const trustCommand: Command = {
  words: ['trust'],
  summary: 'trust a space: let its own settings, skills and instructions take effect',
  usage: 'trust [--space DIR] [--yes]',
  help: `Shows what the space holds that trusting it would turn on, asks on a terminal, then records the
trust from the next run on. Project instruction files reach the model when
prompts.projectInstructions is true as well (default false).

${RESTRICTED_HELP}

Options:
${SPACE_HELP}
  --yes            trust without asking`,
  options: { space: { type: 'string' }, yes: { type: 'boolean' } },
  positionals: [0, 0],
  run: (context, _args, values) => setTrust(context, values, true),
};

const untrustCommand: Command = {
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
};

/** `repa trust` and `repa untrust`. */
export const trustCommands: Command[] = [trustCommand, untrustCommand];
