/** The argument names that say what a tool call works on, in the order they are looked at. */
const TARGET_KEYS = ['path', 'file', 'target', 'pattern', 'query'] as const;

/**
 * What a tool call works on, as its arguments name it (a path, or a search pattern or query), for
 * a tool line; undefined when they name none.
 */
export function toolCallTarget(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of TARGET_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
