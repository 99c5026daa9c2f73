// The sides of the turn benchmark: bare Pi in its forms (Pi's own tools, durable or not, with or
// without a no-op extension) and Repa's PiConversationHost (in a fresh space or one it used
// before). Each side opens its session untimed, holds the conversation timed, then checks it.
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import {
  createAgentSessionFromServices,
  createAgentSessionServices,
  SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { PiConversationHost } from '@repa/host';
import { check, FILES, REQUESTS, resetFiles, script, TURNS } from './conversation.mjs';
import { durableEditTool, durableWriteTool } from './durable-tools.mjs';

/**
 * What every side shares, made once by the benchmark.
 * @typedef {object} TurnEnvironment
 * @property {string} agentDir Pi's agent folder.
 * @property {string} appDirectory Repa's application folder.
 * @property {ReturnType<typeof import('@earendil-works/pi-ai').fauxProvider>} faux
 * @property {import('@earendil-works/pi-coding-agent').ModelRuntime} modelRuntime
 * @property {import('@earendil-works/pi-ai').Model<string>} model The faux model.
 * @property {number} replyDelayMs How long each faux reply is held back (0 or 50 ms).
 * @property {() => string} freshSpace A new space holding the conversation's files.
 * @property {string} [usedSpace] The space of the "used before" side, made at its first
 *   conversation (a warm-up one).
 */

/** Pi's own tools for what Repa's content tools do (Repa's `apply_patch` has no Pi counterpart). */
export const PI_EQUIVALENT_TOOLS = ['read', 'edit', 'write', 'ls', 'find', 'grep'];

let noopContextCalls = 0;

/**
 * An extension that changes nothing: the three handlers Repa's own extension has on the
 * request path (`before_agent_start`, `context`, `context_with_system`), each returning nothing.
 * It measures what Pi's extension path costs by itself.
 */
const NOOP_EXTENSION = {
  name: 'bench-noop',
  factory: (pi) => {
    pi.on('before_agent_start', () => undefined);
    pi.on('context', async () => {
      noopContextCalls += 1;
      return undefined;
    });
    pi.on('context_with_system', () => undefined);
  },
};

function piSettings() {
  return SettingsManager.inMemory({
    compaction: { enabled: false },
    retry: { enabled: false },
  });
}

/**
 * Bare Pi: the same services path the host uses, Pi's own read and edit tools (or `tools`), no
 * extension (or the no-op one); `durable`: its edit (and write) tools write crash-safely.
 * @param {TurnEnvironment} env
 * @param {string} name
 * @param {{ durable?: boolean, tools?: string[], extension?: boolean }} [options]
 */
export function bareSide(
  env,
  name,
  { durable = false, tools = ['read', 'edit'], extension = false } = {},
) {
  let session;
  // The no-op extension's `context` calls before this conversation (each request calls it).
  let noopCallsBefore = 0;
  const open = async () => {
    const space = env.freshSpace();
    const durableEdit = durable ? durableEditTool(space) : undefined;
    const customTools = durableEdit
      ? [durableEdit, ...(tools.includes('write') ? [durableWriteTool(space)] : [])]
      : [];
    const services = await createAgentSessionServices({
      cwd: space,
      agentDir: env.agentDir,
      settingsManager: piSettings(),
      modelRuntime: env.modelRuntime,
      resourceLoaderOptions: {
        noExtensions: true,
        noPromptTemplates: true,
        noThemes: true,
        ...(extension ? { extensionFactories: [NOOP_EXTENSION] } : {}),
      },
    });
    noopCallsBefore = noopContextCalls;
    const { session: opened } = await createAgentSessionFromServices({
      services,
      sessionManager: SessionManager.create(space, join(space, '.pi-sessions')),
      model: env.model,
      thinkingLevel: 'off',
      tools,
      ...(durableEdit ? { customTools } : {}),
    });
    for (const tool of customTools) {
      if (opened.getToolDefinition(tool.name) !== tool) {
        throw new Error(`the durable ${tool.name} tool did not replace Pi’s own`);
      }
    }
    if (opened.getActiveToolNames().sort().join() !== [...tools].sort().join()) {
      throw new Error(`bare Pi offers ${opened.getActiveToolNames().join()}, not ${tools.join()}`);
    }
    await opened.bindExtensions({ onError: () => {} });
    env.faux.setResponses(script(env.replyDelayMs));
    session = opened;
  };
  return {
    name,
    beforeEach: open,
    fn: async () => {
      for (let turn = 0; turn < TURNS; turn++) await session.prompt(`Review turn ${turn + 1}`);
    },
    afterEach: () => {
      check(session.getLastAssistantText(), session.sessionManager.getCwd(), name);
      const requests = noopContextCalls - noopCallsBefore;
      if (extension && requests < REQUESTS) {
        throw new Error(`${name}: the no-op extension's context handler ran ${requests} times`);
      }
      session.dispose();
    },
  };
}

/**
 * A new host in a fresh space, or (`used`) in a space Repa worked in before: its `.repa/` made,
 * the files identified by earlier conversations, the process's store for it still open (as in
 * the daemon, which keeps one per space). The files are put back with mtimes a minute old, as
 * for files nobody touched in the last seconds; each conversation is a new host and session.
 * @param {TurnEnvironment} env
 * @returns {Promise<{ host: PiConversationHost, space: string }>}
 */
export async function openRepaHost(env, used = false) {
  let space;
  if (used) {
    env.usedSpace ??= env.freshSpace();
    space = env.usedSpace;
    resetFiles(space);
    const past = new Date(Date.now() - 60_000);
    for (const path of FILES) utimesSync(join(space, path), past, past);
  } else {
    space = env.freshSpace();
  }
  const host = await PiConversationHost.open({
    space,
    appDirectory: env.appDirectory,
    agentDir: env.agentDir,
    modelRuntime: env.modelRuntime,
    model: env.model,
    piSettings: piSettings(),
  });
  env.faux.setResponses(script(env.replyDelayMs));
  return { host, space };
}

/** The scripted conversation through Repa's host, one `send` per turn. */
export async function repaConversation(host, settings) {
  for (let turn = 0; turn < TURNS; turn++) {
    const outcome = await host.send(`Review turn ${turn + 1}`, settings);
    if (outcome.status !== 'succeeded') throw new Error(JSON.stringify(outcome.error));
  }
}

/**
 * Repa's PiConversationHost with `settings`, in a fresh space per conversation or (`used`) in the
 * one space it used before (see openRepaHost).
 * @param {TurnEnvironment} env
 */
export function repaSide(env, settings, used = false) {
  let opened;
  return {
    name: used ? 'Repa PiConversationHost, in a space it used before' : 'Repa PiConversationHost',
    beforeEach: async () => {
      opened = await openRepaHost(env, used);
    },
    // An async function, so tinybench need not call it once to learn whether it returns a promise.
    fn: async () => {
      await repaConversation(opened.host, settings);
    },
    afterEach: () => {
      check(opened.host.session.getLastAssistantText(), opened.space, 'Repa');
      opened.host.dispose();
    },
  };
}
