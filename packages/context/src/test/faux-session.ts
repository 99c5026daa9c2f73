import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AssistantMessage,
  fauxAssistantMessage,
  fauxProvider,
  InMemoryCredentialStore,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import {
  type AgentSession,
  createAgentSession,
  type ExtensionFactory,
  ModelRuntime,
  type SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { bareResourceLoader } from '../bare-resource-loader.js';

/** A real Pi AgentSession on the faux provider, recording every provider request. */
export interface FauxSession {
  session: AgentSession;
  /** Every request the provider received (model turns and compaction summaries), cloned. */
  requests: TranscriptContext[];
  /** Queue replies; each records its request. `text` may be a function of the request. */
  reply(...texts: (string | ((context: TranscriptContext) => string))[]): void;
  dispose(): void;
}

/**
 * Builds an AgentSession with `sessionManager` (e.g. a `withModelContext` proxy), no tools, no
 * automatic compaction, an inline extension, and the faux provider (SDK reference §11).
 */
export async function createFauxSession(options: {
  sessionManager: SessionManager;
  extension?: ExtensionFactory;
  keepRecentTokens?: number;
}): Promise<FauxSession> {
  process.env.PI_OFFLINE = '1';
  const base = mkdtempSync(join(tmpdir(), 'repa-faux-'));
  const cwd = join(base, 'work');
  mkdirSync(cwd);
  const agentDir = join(base, 'agent');
  const faux = fauxProvider();
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  const model = modelRuntime.getModel('faux', 'faux-1');
  if (!model) throw new Error('faux model missing');
  const settingsManager = SettingsManager.inMemory({
    compaction: { enabled: false, keepRecentTokens: options.keepRecentTokens ?? 20000 },
  });
  const resourceLoader = await bareResourceLoader({
    cwd,
    agentDir,
    settingsManager,
    extensionFactories: options.extension
      ? [{ name: 'repa-test', factory: options.extension }]
      : [],
  });
  const { session } = await createAgentSession({
    cwd,
    agentDir,
    model,
    thinkingLevel: 'off',
    modelRuntime,
    settingsManager,
    resourceLoader,
    sessionManager: options.sessionManager,
    tools: [],
  });
  const errors: unknown[] = [];
  await session.bindExtensions({ onError: (error) => errors.push(error) });
  const requests: TranscriptContext[] = [];
  return {
    session,
    requests,
    reply(...texts) {
      faux.appendResponses(
        texts.map((text) => (context: TranscriptContext): AssistantMessage => {
          if (errors.length > 0) throw new Error(`extension error: ${JSON.stringify(errors)}`);
          requests.push(structuredClone(context));
          return fauxAssistantMessage(typeof text === 'function' ? text(context) : text);
        }),
      );
    },
    dispose() {
      session.dispose();
      if (errors.length > 0) throw new Error(`extension error: ${JSON.stringify(errors)}`);
    },
  };
}
