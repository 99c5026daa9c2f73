import { createInterface } from 'node:readline/promises';
import { RepaError } from '@repa/protocol';
import type { CliContext } from './cli-context.js';
import { usageError } from './usage-error.js';

/** Whether the command can ask the learner: stdin and stdout are a terminal. */
export function onTerminal(context: CliContext): boolean {
  return context.stdin.isTTY === true && context.stdout.isTTY === true;
}

/** What {@link askConsent} asks, and what it says when it cannot ask or is told no. */
export interface Consent {
  /** The question, without its `[y/N]`. */
  question: string;
  /** Whether Enter alone means yes (`[Y/n]`); otherwise it means no (`[y/N]`). */
  defaultYes: boolean;
  /** `--yes`: go on without asking. */
  yes: boolean;
  /** Said when there is no terminal to ask on (or `--json`) and no `--yes`: a usage error. */
  unasked: { message: string; fix: string };
  /** Said when the learner answers no: `cancelled`. */
  declined: { message: string; fix: string };
}

/**
 * Consent before a command does what the learner must agree to: `--yes` goes on; on a terminal
 * (without `--json`) it asks; anywhere else it refuses with a usage error (exit 2) naming `--yes`.
 */
export async function askConsent(context: CliContext, consent: Consent): Promise<void> {
  if (consent.yes) return;
  if (!onTerminal(context) || context.json) {
    throw usageError(consent.unasked.message, consent.unasked.fix);
  }
  const prompt = createInterface({ input: context.stdin, output: context.stdout });
  try {
    // Input that ends before an answer (Ctrl-D) is a no.
    const answer = await new Promise<string | undefined>((resolve) => {
      prompt.once('close', () => resolve(undefined));
      prompt
        .question(`${consent.question} ${consent.defaultYes ? '[Y/n]' : '[y/N]'} `)
        .then(resolve, () => resolve(undefined));
    });
    const yes = consent.defaultYes ? /^\s*(y|yes)?\s*$/i : /^\s*(y|yes)\s*$/i;
    if (answer !== undefined && yes.test(answer)) return;
  } finally {
    prompt.close();
  }
  throw new RepaError('cancelled', consent.declined.message, { fix: consent.declined.fix });
}
