import { open, rm } from 'node:fs/promises';
import { READ_NO_FOLLOW, replaceFile } from '@repa/durable-fs';
import { daemonPaths } from '@repa/protocol/node';
import { z } from 'zod';

/** The web listener's port and secret, kept so that a restarted daemon serves the open page again. */
export interface WebState {
  port: number;
  secret: string;
}

const webStateSchema = z.strictObject({
  port: z.number().int().min(1).max(65535),
  secret: z.string().regex(/^[\w-]{43}$/),
});

const MAX_STATE_BYTES = 1024;

function statePath(appDirectory: string): string {
  return daemonPaths(appDirectory).webStatePath;
}

/**
 * The state the last web listener of `appDirectory` saved, or undefined when there is none or it
 * is not a small regular file holding a valid state (it is then ignored, never followed).
 */
export async function readWebState(appDirectory: string): Promise<WebState | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(statePath(appDirectory), READ_NO_FOLLOW);
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_STATE_BYTES) return undefined;
    const parsed = webStateSchema.safeParse(JSON.parse(await handle.readFile('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** Saves the web listener's state (atomically, readable by the owner only). */
export async function writeWebState(appDirectory: string, state: WebState): Promise<void> {
  const bytes = new TextEncoder().encode(`${JSON.stringify(state)}\n`);
  await replaceFile(statePath(appDirectory), bytes, { mode: 0o600 });
}

/** Deletes the saved state (on a clean close), so that the next daemon makes a new secret. */
export async function deleteWebState(appDirectory: string): Promise<void> {
  await rm(statePath(appDirectory), { force: true }).catch(() => undefined);
}
