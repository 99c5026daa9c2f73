import type { RepaClient } from '@repa/protocol';

/** A prompt template of a Pi package: `/name ARGS` in a chat is expanded by Pi (spec R75). */
export type ChatTemplate = readonly [command: string, description: string];

/**
 * The prompt templates a run in the space loads (`/name` and what it does), from `packages.list`;
 * none when the daemon cannot list them (an older daemon), so the chat still starts.
 */
export async function chatTemplates(client: RepaClient, space: string): Promise<ChatTemplate[]> {
  const listed = await client.request('packages.list', { space }).catch(() => undefined);
  return (listed?.resources ?? [])
    .filter((item) => item.kind === 'prompt')
    .map((item) => [`/${item.name}`, item.description ?? `prompt template of ${item.source}`]);
}

/** True when the line starts with one of the templates (it goes to the model as a request). */
export function isTemplateLine(templates: readonly ChatTemplate[], line: string): boolean {
  const [name] = line.trim().split(/\s+/, 1);
  return templates.some(([command]) => command === name);
}

/** The `/help` lines of the templates. */
export function templateHelpLines(templates: readonly ChatTemplate[]): string[] {
  if (templates.length === 0) return [];
  return [
    "Prompt templates (Pi packages; Pi expands '/name ARGS' into the request):",
    ...templates.map(([command, what]) => `  ${command.padEnd(10)} ${what}`),
  ];
}
