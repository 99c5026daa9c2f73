// The learning-context commands' reads and writes through the daemon (`context.get`, `context.set`).
import { RepaError, type V1Result } from '@repa/protocol';
import type { CliContext } from '../cli-context.js';
import { writeJson } from '../format-table.js';

/** The space's learning context as `context.get` answers it (for a session's settings, when given). */
export async function readContext(
  context: CliContext,
  space: string,
  sessionId?: string,
): Promise<V1Result<'context.get'>> {
  const client = await context.client();
  return client.request('context.get', { space, ...(sessionId ? { sessionId } : {}) });
}

/** Writes through `context.set` and prints the new revision. */
export async function writeContext(
  context: CliContext,
  params: {
    space: string;
    body: string;
    sources: string[];
    expectedRevision: string | null;
    force: boolean;
  },
): Promise<number> {
  const client = await context.client();
  const result = await client.request('context.set', {
    space: params.space,
    body: params.body,
    sources: params.sources,
    expectedRevision: params.expectedRevision,
    ...(params.force ? { force: true } : {}),
  });
  if (context.json) {
    writeJson(context.stdout, { space: params.space, ...result });
    return 0;
  }
  if (result.damagedFileKept) {
    context.stdout.write(`kept the damaged file as ${result.damagedFileKept}\n`);
  }
  context.stdout.write(`revision  ${result.revision}\n`);
  return 0;
}

/** The expected revision of a write: the current one, or null; a damaged file counts as none. */
export async function currentRevision(context: CliContext, space: string, force: boolean) {
  try {
    return (await readContext(context, space)).context;
  } catch (error) {
    const damaged = ['context_unavailable', 'data_too_large'].includes(
      RepaError.isInstance(error) ? error.code : '',
    );
    if (force && damaged) return null;
    throw error;
  }
}
