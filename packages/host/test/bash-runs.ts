import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkSandbox } from '@repa/content/tools';
import type { ModelSettings, PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { createFauxHost, type FauxHostOptions } from '../src/testing/index.js';
import { reply, toolCall } from './faux-replies.js';

// What the bash tool tests share: the settings that turn it on, runs of a scripted model calling
// it, and the processes a command left on this machine.

/** The prompt settings' defaults. */
export const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };
/** Model settings with the bash tool sandboxed (its default time limit). */
export const sandboxed: ModelSettings = {
  model: null,
  thinkingLevel: null,
  tools: null,
  bash: 'sandboxed',
  bashTimeoutSeconds: 120,
};
/** A faux reply calling bash with `command` (and the model's own `timeout`). */
export const bash = (command: string, timeout?: number) =>
  toolCall('bash', timeout === undefined ? { command } : { command, timeout });
/** The tool-end events of a run, in order. */
export const toolEnds = (events: RunEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-end' ? [event] : []));

/** Fails the file with how to install bubblewrap when it is not usable here (never skips). */
export async function needBubblewrap(): Promise<void> {
  try {
    await checkSandbox();
  } catch (error) {
    throw new Error(
      `The bash tool tests need bubblewrap, which is not usable here: ${String(error)}. Install it with \`sudo apt-get install bubblewrap\` (.ci/run does this in CI).`,
    );
  }
}
/** The text of every tool result the model was sent, in order. */
export function toolResults(host: Awaited<ReturnType<typeof createFauxHost>>['host']): string[] {
  return host.session.messages.flatMap((message) =>
    message.role === 'toolResult'
      ? [message.content.map((part) => ('text' in part ? part.text : '')).join('')]
      : [],
  );
}

/** Runs one request whose scripted model makes the given tool calls, then answers `done`. */
export async function run(
  calls: ReturnType<typeof toolCall>[],
  settings: ModelSettings = sandboxed,
  options: FauxHostOptions = {},
) {
  const faux = await createFauxHost(options);
  faux.faux.setResponses([...calls, reply('done')]);
  const events: RunEvent[] = [];
  const outcome = await faux.host.send('go', defaults, {
    modelSettings: settings,
    onEvent: (event) => events.push(event),
    runId: 'bash-run',
  });
  return { ...faux, outcome, events, results: toolResults(faux.host) };
}

/** The pids of live (not zombie) processes whose command line is exactly `argv`. */
export function processesRunning(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== wanted) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z') {
        found.push(Number(name));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Whether process `pid` is alive (not gone, not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits (polling, no time assertion) until `check` holds. */
export async function until<T>(check: () => T | undefined): Promise<T> {
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    await sleep(20);
  }
}
