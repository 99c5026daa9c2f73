import { rmSync } from 'node:fs';
import { type EndpointReply, type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import type { RepaClient } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { type createSandbox, repa, repaJson } from '@repa/test-kit';
import { expect } from 'vitest';

/** The reply a scripted model ends with when nothing else is scripted. */
export const DONE: EndpointReply = { kind: 'text', text: 'Done.' };

/** A daemon on a scripted OpenAI endpoint, with a client connected to it. */
export interface ScriptedDaemon {
  model: OpenAiEndpoint;
  client: RepaClient;
  /** Stops the client, the daemon and the endpoint, and removes the sandbox. */
  stop(): Promise<void>;
}

/**
 * Starts `sandbox`'s daemon on a scripted endpoint (`test/plain`) and runs once in its space (a
 * space Repa makes is trusted, so its own settings of `tools.*` apply).
 */
export async function startScriptedDaemon(
  sandbox: ReturnType<typeof createSandbox>,
): Promise<ScriptedDaemon> {
  const model = await startOpenAiEndpoint([DONE]);
  model.configure(sandbox.agentDir);
  const start = await repaJson(sandbox, ['daemon', 'start', '--model', 'test/plain']);
  expect(start.code, start.stderr).toBe(0);
  const first = await repa(sandbox, ['run', 'Hello.']);
  expect(first.code, first.stderr).toBe(0);
  const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
  await client.connect();
  return {
    model,
    client,
    stop: async () => {
      await client.close();
      await repaJson(sandbox, ['daemon', 'stop']);
      await model.close();
      rmSync(sandbox.root, { recursive: true, force: true });
    },
  };
}

/** The tool names a request offered the model. */
export const offered = (request: Record<string, unknown> | undefined) =>
  ((request?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
