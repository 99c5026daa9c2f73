import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Credential,
  type CredentialStore,
  InMemoryCredentialStore,
  type Model,
} from '@earendil-works/pi-ai';
import {
  createAgentSession,
  DefaultResourceLoader,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { OFFLINE_MODEL_ID, RepaError } from '@repa/protocol';
import { fauxModelChoice } from './faux-model-choice.js';
import { findModel } from './find-model.js';
import type { ModelChoice } from './model-choice.js';
import { createOfflineProvider } from './offline-model.js';

/** Options of {@link chooseModel}. */
export interface ChooseModelOptions {
  /** Pi's configuration directory (`auth.json`, `models.json`). */
  agentDir: string;
  /** `provider/id` to use; `repa-offline` forces the offline responder. Default: Pi's own choice. */
  model?: string;
  /** Read Pi's credentials without creating, locking or writing `auth.json` (`repa doctor`). */
  readOnly?: boolean;
}

/** Pi's stored credentials, held in memory: `auth.json` is read, never created or written. */
async function readOnlyCredentials(authPath: string): Promise<CredentialStore> {
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
      {
        fix: `Repair ${authPath} (an object of provider → credential), or remove it.`,
      },
    );
  }
  const store = new InMemoryCredentialStore();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return store;
  for (const [providerId, credential] of Object.entries(data)) {
    await store.modify(providerId, async () => credential as Credential);
  }
  return store;
}

/** The embedded offline responder as a model choice (spec: a faux provider, clearly named). */
export function offlineModel(): Promise<ModelChoice> {
  return fauxModelChoice(createOfflineProvider(), OFFLINE_MODEL_ID);
}

/**
 * The model Pi itself would start with for this configuration: Pi's own choice (its settings'
 * `defaultProvider`/`defaultModel` when credentialed, then its per-provider defaults, then the
 * first credentialed model), read from a throwaway in-memory Pi session so Repa and `pi` agree.
 */
async function piInitialModel(
  modelRuntime: ModelRuntime,
  agentDir: string,
): Promise<Model<string> | undefined> {
  // Fills the runtime's snapshot of credentialed models, which Pi's choice reads.
  const available = await modelRuntime.getAvailable();
  const settingsManager = SettingsManager.create(agentDir, agentDir);
  const resourceLoader = new DefaultResourceLoader({
    cwd: agentDir,
    agentDir,
    settingsManager,
    noExtensions: true,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
  });
  await resourceLoader.reload();
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
  return available.some((one) => one.provider === model?.provider && one.id === model?.id)
    ? model
    : undefined;
}

/**
 * Picks the model from Pi's own configuration and credentials (spec R71): the named one, else the
 * model Pi itself would choose, else the embedded offline responder.
 */
export async function chooseModel(options: ChooseModelOptions): Promise<ModelChoice> {
  if (options.model === OFFLINE_MODEL_ID) return offlineModel();
  const authPath = join(options.agentDir, 'auth.json');
  const modelRuntime = await ModelRuntime.create({
    ...(options.readOnly ? { credentials: await readOnlyCredentials(authPath) } : { authPath }),
    modelsPath: join(options.agentDir, 'models.json'),
    allowModelNetwork: false,
    refreshOnCreate: false,
  });
  if (options.model) {
    const model = findModel(
      modelRuntime,
      options.model,
      'Use provider/id as listed by `repa doctor`, or repa-offline.',
    );
    const available = await modelRuntime.getAvailable();
    if (
      !available.some(
        (candidate) => candidate.provider === model.provider && candidate.id === model.id,
      )
    ) {
      throw new RepaError(
        'not_found',
        `Model ${options.model} has no credentials in Pi's configuration.`,
        {
          fix: `Add a key for ${model.provider} to ${join(options.agentDir, 'auth.json')} (see \`repa models\`).`,
        },
      );
    }
    return { modelRuntime, model, label: options.model, offline: false };
  }
  const chosen = await piInitialModel(modelRuntime, options.agentDir);
  if (!chosen) return offlineModel();
  return {
    modelRuntime,
    model: chosen,
    label: `${chosen.provider}/${chosen.id}`,
    offline: false,
  };
}
