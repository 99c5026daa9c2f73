import type { FileEntry } from '@earendil-works/pi-coding-agent';

/** A tool call as `[name target]`: the path or search pattern it works on, when it names one. */
function toolCallText(name: string | undefined, args: unknown): string {
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const target = [record.pattern, record.path].filter((value) => typeof value === 'string');
  const shown = target.map((value) => {
    const text = String(value).replace(/\s+/g, ' ');
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  });
  return `[${[name, ...shown].join(' ')}]`;
}

/**
 * The text of a message's content: its text blocks, and each tool call as `[name target]` (unless
 * `toolCalls` is false).
 */
export function textOf(content: unknown, { toolCalls = true } = {}): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: string; name?: string; arguments?: unknown }) =>
      block.type === 'text'
        ? (block.text ?? '')
        : block.type === 'toolCall' && toolCalls
          ? toolCallText(block.name, block.arguments)
          : '',
    )
    .filter(Boolean)
    .join('\n');
}

const TITLE_CHARS = 60;

/** A title from a request: its words on one line, cut at a word to at most 60 characters. */
function titleOfRequest(text: string): string | undefined {
  const words = text.replace(/\s+/g, ' ').trim();
  if (words.length <= TITLE_CHARS) return words || undefined;
  const cut = words.slice(0, TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * What Pi's own session listing shows of a sound session: its name (the last `session_info`, else
 * its first request, shortened) and its last activity.
 */
export function summaryOf(entries: readonly FileEntry[]): { name?: string; lastActivity?: number } {
  let name: string | undefined;
  let firstRequest: string | undefined;
  let lastActivity: number | undefined;
  for (const entry of entries) {
    if (entry.type === 'session_info') name = entry.name?.trim() || undefined;
    if (entry.type !== 'message') continue;
    const { role, timestamp, content } = entry.message as {
      role: string;
      timestamp?: unknown;
      content?: unknown;
    };
    if (role === 'user' && firstRequest === undefined) firstRequest = textOf(content);
    if (role !== 'user' && role !== 'assistant') continue;
    const time = typeof timestamp === 'number' ? timestamp : Date.parse(entry.timestamp);
    if (!Number.isNaN(time)) lastActivity = Math.max(lastActivity ?? 0, time);
  }
  name ??= titleOfRequest(firstRequest ?? '');
  return { ...(name ? { name } : {}), ...(lastActivity ? { lastActivity } : {}) };
}
