import { readFile } from 'node:fs/promises';
import {
  type Credential,
  type CredentialStore,
  InMemoryCredentialStore,
  type Model,
} from '@earendil-works/pi-ai';
import {
  createAgentSession,
  type ModelRuntime,
  SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { bareResourceLoader } from '@repa/context';
import { OFFLINE_MODEL_ID, RepaError } from '@repa/protocol';

/** Pi's stored credentials, held in memory: `auth.json` is read, never created or written. */
export async function readOnlyCredentials(authPath: string): Promise<CredentialStore> {
  let text: string;
  try {
    text = await readFile(authPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new InMemoryCredentialStore();
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new RepaError(
      'data_corrupt',
      `Pi's ${authPath} is not JSON: ${(error as Error).message}`,
      { fix: `Repair ${authPath} (an object of provider → credential), or remove it.` },
    );
  }
  const store = new InMemoryCredentialStore();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return store;
  for (const [providerId, credential] of Object.entries(data)) {
    await store.modify(providerId, async () => credential as Credential);
  }
  return store;
}

/** The runtime as Pi's model choice sees it: without `repa-offline`, which is Repa's own. */
function withoutOffline(runtime: ModelRuntime): ModelRuntime {
  return new Proxy(runtime, {
    get(target, key) {
      if (key === 'getAvailableSnapshot') {
        return () =>
          target.getAvailableSnapshot().filter((model) => model.provider !== OFFLINE_MODEL_ID);
      }
      if (key === 'hasConfiguredAuth') {
        return (provider: string) =>
          provider !== OFFLINE_MODEL_ID && target.hasConfiguredAuth(provider);
      }
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The model Pi itself would start with for this configuration: its settings'
 * `defaultProvider`/`defaultModel` when credentialed, then its per-provider defaults, then the
 * first credentialed model; read from a throwaway in-memory Pi session so Repa and `pi` agree.
 * `undefined` when no model has credentials. The runtime's credentials must be fresh.
 */
export async function piDefaultModel(
  runtime: ModelRuntime,
  agentDir: string,
): Promise<Model<string> | undefined> {
  const modelRuntime = withoutOffline(runtime);
  const settingsManager = SettingsManager.create(agentDir, agentDir);
  const resourceLoader = await bareResourceLoader({ cwd: agentDir, agentDir, settingsManager });
  const { session } = await createAgentSession({
    cwd: agentDir,
    agentDir,
    modelRuntime,
    settingsManager,
    resourceLoader,
    sessionManager: SessionManager.inMemory(agentDir),
    tools: [],
  });
  const model = session.model as Model<string> | undefined;
  session.dispose();
  // Without any credentialed model Pi holds a placeholder; that is no choice.
  return model && modelRuntime.hasConfiguredAuth(model.provider) ? model : undefined;
}
