import type { CliContext } from '../cli-context.js';
import { spaceOf } from '../cli-context.js';
import type { Command, OptionValues } from '../command.js';
import { writeJson } from '../format-table.js';

const SPACE_HELP = '  --space DIR      the space (default: the current directory)';

async function setTrust(context: CliContext, values: OptionValues, trusted: boolean) {
  const space = spaceOf(context, typeof values.space === 'string' ? values.space : undefined);
  const result = await (await context.client()).request('space.trust', { space, trusted });
  if (context.json) {
    writeJson(context.stdout, result);
    return 0;
  }
  const already = result.wasTrusted === trusted;
  context.stdout.write(
    trusted
      ? `${already ? 'already trusted' : 'trusted'}: ${result.space}\nIts project instruction files (AGENTS.md, CLAUDE.md) reach the model when prompts.projectInstructions is true (repa settings set prompts.projectInstructions true).\n`
      : `${already ? 'was not trusted' : 'no longer trusted'}: ${result.space}\nIts project instruction files are withheld from the model.\n`,
  );
  return 0;
}

const trustCommand: Command = {
  words: ['trust'],
  summary: "trust a space's project instruction files",
  usage: 'trust [--space DIR]',
  help: `Records in the app directory that the space's project instruction files (AGENTS.md, CLAUDE.md)
may reach the model, from the next run on. They do when prompts.projectInstructions is true as well
(default false). A run's prompt report says when they were withheld because the space is not trusted.

Options:
${SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [0, 0],
  run: (context, _args, values) => setTrust(context, values, true),
};

const untrustCommand: Command = {
  words: ['untrust'],
  summary: 'withdraw the trust of a space',
  usage: 'untrust [--space DIR]',
  help: `Withdraws the trust repa trust recorded: the space's project instruction files are withheld from
the model from the next run on.

Options:
${SPACE_HELP}`,
  options: { space: { type: 'string' } },
  positionals: [0, 0],
  run: (context, _args, values) => setTrust(context, values, false),
};

/** `repa trust` and `repa untrust`. */
export const trustCommands: Command[] = [trustCommand, untrustCommand];
