import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { OptionValues } from './command.js';
import { didYouMean } from './did-you-mean.js';
import { usageError } from './usage-error.js';

/**
 * Parses `args` against `options` with Repa's own messages instead of Node's `parseArgs` text: an
 * unknown option (with the closest known one), an option without its value, a flag given a value.
 * `help` is the fix's command, e.g. `repa sessions list --help`.
 */
export function parseOptions<const O extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: O,
  help: string,
): { values: OptionValues<O>; positionals: string[] } {
  const fix = `Run '${help}' to see its options.`;
  const { tokens } = parseArgs({
    args: [...args],
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const names = Object.keys(options).map((name) => `--${name}`);
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const config = options[token.name];
    if (!config) {
      throw usageError(
        `Unknown option '${token.rawName}'.${didYouMean(`--${token.name}`, names)}`,
        fix,
      );
    }
    const long = `--${token.name}`;
    if (config.type === 'boolean' && token.value !== undefined) {
      throw usageError(`Option '${long}' takes no value.`, fix);
    }
    if (config.type === 'string') {
      if (token.value === undefined) throw usageError(`Option '${long}' needs a value.`, fix);
      if (!token.inlineValue && token.value.startsWith('-') && token.value !== '-') {
        throw usageError(
          `Option '${long}' needs a value, not '${token.value}'.`,
          `Give the value after it; one that starts with '-' as ${long}=${token.value}.`,
        );
      }
    }
  }
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    // Anything the checks above did not name: keep Node's first sentence only.
    throw usageError(`${(error as Error).message.split('\n')[0]}`, fix);
  }
}

/** `--limit N`: a whole number from 1 to `max`, or undefined when not given. */
export function limitOf(text: string | undefined, max = 1000): number | undefined {
  if (text === undefined) return undefined;
  const limit = Number(text);
  if (!(Number.isInteger(limit) && limit > 0 && limit <= max)) {
    throw usageError(
      `--limit must be a whole number from 1 to ${max}, not '${text}'.`,
      'Pass e.g. --limit 20.',
    );
  }
  return limit;
}
