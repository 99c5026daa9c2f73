import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CELLS_NOTE,
  type EndpointReply,
  type OpenAiEndpoint,
  startOpenAiEndpoint,
} from '@repa/fixtures';
import type { RepaClient } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import {
  type CliSandbox,
  createSandbox,
  repa,
  repaJson,
  SLOW_MODEL,
  type SlowModel,
  startSlowModel,
  writeFiles,
} from '@repa/test-kit';
import { afterAll, beforeAll, expect } from 'vitest';

/** The offline responder's name as `repa` shows it. */
export const OFFLINE = 'repa-offline (local responder, no language model)';

/** A sandbox whose daemon the file starts (with no model) before its tests and stops after. */
export interface CommandsSandbox {
  sandbox: CliSandbox;
  /** A fresh space folder inside the sandbox. */
  newSpace(name: string, files?: Record<string, string>): string;
  /** Writes a space's learning context through the sandbox's daemon (`context.set`). */
  writeLearningContext(space: string, input: { body: string; sources: string[] }): Promise<void>;
}

/**
 * Registers the hooks of a test file with one daemon in a fresh sandbox: before its tests
 * `prepare` (model endpoints, Pi settings, files) and `repa daemon start` (with `--model model` when
 * given); after them `repa daemon stop`, `cleanup` (what `prepare` started) and the sandbox removed.
 */
export function useDaemon({
  model,
  prepare,
  cleanup,
}: {
  model?: string;
  prepare?: (sandbox: CliSandbox) => unknown;
  cleanup?: () => unknown;
} = {}): CliSandbox {
  const sandbox = createSandbox();
  let setUp: Promise<void> | undefined;

  beforeAll(() => {
    setUp = (async () => {
      await prepare?.(sandbox);
      const { code, json, stderr } = await repaJson<{ started: boolean; model: string }>(sandbox, [
        'daemon',
        'start',
        ...(model === undefined ? [] : ['--model', model]),
      ]);
      expect(code, stderr).toBe(0);
      expect(json).toMatchObject({ started: true, running: true });
      if (model === undefined) expect(json).not.toHaveProperty('model');
      else expect(json.model).toBe(model);
    })();
    return setUp;
  });

  afterAll(async () => {
    // A set-up that timed out goes on running: stop its daemon only once it has started.
    await setUp?.catch(() => {});
    const { code, json } = await repaJson<{ stopped: boolean }>(sandbox, ['daemon', 'stop']);
    await cleanup?.();
    rmSync(sandbox.root, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(json.stopped).toBe(true);
  });

  return sandbox;
}

/**
 * As {@link useDaemon}, with the kit's slow model served (started before the daemon, closed after
 * it): the daemon on `model` (default: the slow model), the model holding requests unless `holding`
 * is false; the sandbox, and the model once the file's hooks ran.
 */
export function useSlowDaemon({
  model = SLOW_MODEL,
  holding = true,
}: {
  model?: string;
  holding?: boolean;
} = {}): { sandbox: CliSandbox; slow(): SlowModel } {
  let started: SlowModel | undefined;
  const sandbox = useDaemon({
    model,
    prepare: async (sandbox) => {
      started = await startSlowModel();
      started.holding = holding;
      started.configure(sandbox.agentDir);
    },
    cleanup: () => started?.close(),
  });
  return {
    sandbox,
    slow() {
      if (started === undefined) throw new Error('the slow model starts in beforeAll');
      return started;
    },
  };
}

/**
 * As {@link useDaemon}, on `model` (default `test/plain` of a local OpenAI-compatible endpoint
 * answering `replies`, started before the daemon and closed after it), with `piSettings` in Pi's
 * settings.json when given: the sandbox, and the endpoint once the file's hooks ran.
 */
export function useEndpointDaemon(
  replies: EndpointReply[],
  {
    piSettings,
    model = 'test/plain',
  }: { piSettings?: Record<string, unknown>; model?: string } = {},
): { sandbox: CliSandbox; endpoint(): OpenAiEndpoint } {
  let started: OpenAiEndpoint | undefined;
  const sandbox = useDaemon({
    model,
    prepare: async (sandbox) => {
      started = await startOpenAiEndpoint(replies);
      started.configure(sandbox.agentDir);
      if (piSettings) {
        writeFileSync(join(sandbox.agentDir, 'settings.json'), JSON.stringify(piSettings));
      }
    },
    cleanup: () => started?.close(),
  });
  return {
    sandbox,
    endpoint() {
      if (started === undefined) throw new Error('the endpoint starts in beforeAll');
      return started;
    },
  };
}

/**
 * The daemon of the study draft and quiz files: on the offline responder, with a local
 * OpenAI-compatible endpoint (answering {@link DONE} until a test scripts it) that a test picks
 * with `--model test/plain`; the space holds `notes/cells.md` ({@link CELLS_NOTE}).
 */
export function useStudyDaemon(): { sandbox: CliSandbox; endpoint(): OpenAiEndpoint } {
  const daemon = useEndpointDaemon([DONE], { model: 'repa-offline' });
  writeFiles(daemon.sandbox.space, { 'notes/cells.md': CELLS_NOTE });
  return daemon;
}

/** Registers the hooks that start (with no model) and stop the daemon of a fresh sandbox for this test file. */
export function useCommandsSandbox(): CommandsSandbox {
  const sandbox = useDaemon();

  return {
    sandbox,
    newSpace(name, files = {}) {
      const space = join(sandbox.root, name);
      writeFiles(space, { 'README.md': `# ${name}\n`, ...files });
      return space;
    },
    async writeLearningContext(space, input) {
      const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
      try {
        await client.connect();
        const { context } = await client.request('context.get', { space });
        await client.request('context.set', {
          space,
          ...input,
          expectedRevision: context?.revision ?? null,
        });
      } finally {
        await client.close();
      }
    },
  };
}

/** The reply a scripted model ends with when nothing else is scripted. */
export const DONE: EndpointReply = { kind: 'text', text: 'Done.' };

/** The tool names a request offered the model. */
export const offered = (request: Record<string, unknown> | undefined) =>
  ((request?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

/**
 * As {@link useEndpointDaemon} (answering {@link DONE}), its space made a Repa space by a first run
 * (trusted, so its own `tools.*` settings apply) and a client connected to the daemon: the sandbox,
 * and the endpoint and the client once the file's hooks ran.
 */
export function useScriptedDaemon(): {
  sandbox: CliSandbox;
  endpoint(): OpenAiEndpoint;
  client(): RepaClient;
} {
  const { sandbox, endpoint } = useEndpointDaemon([DONE]);
  let connected: RepaClient | undefined;
  beforeAll(async () => {
    const first = await repa(sandbox, ['run', 'Hello.']);
    expect(first.code, first.stderr).toBe(0);
    connected = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
    await connected.connect();
  });
  afterAll(() => connected?.close());
  return {
    sandbox,
    endpoint,
    client() {
      if (connected === undefined) throw new Error('the client connects in beforeAll');
      return connected;
    },
  };
}
