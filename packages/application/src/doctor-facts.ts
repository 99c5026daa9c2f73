import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PiModels } from '@repa/host';
import { type ModelDecision, OFFLINE_MODEL_ID, RepaError, type V1Result } from '@repa/protocol';
import { loadHost, piAgentDir } from './load-host.js';

/** Environment variables Pi reads keys from, for the most used providers (names only). */
const KEY_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'OPENROUTER_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
];

/** Options of {@link doctorFacts}. */
export interface DoctorFactsOptions {
  /** Pi's agent directory; default Pi's own (`~/.pi/agent`). */
  agentDir?: string | undefined;
  /** The daemon's models; default: Pi's configuration read now, without writing anything. */
  models?: PiModels;
  /** The model a space's next run uses and why (a daemon answering for a space). */
  next?: () => Promise<ModelDecision>;
  /** The daemon's `--model`, when it has one. */
  daemonModel?: string | undefined;
  /** When the daemon started (absent without a daemon). */
  startedAt?: string;
  /**
   * The environment whose key variables are reported (names only) and whose `PATH` is searched for
   * the sandbox's `bwrap`. Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/** When a file last changed, or undefined when it does not exist. */
function changedAt(path: string): string | undefined {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return undefined;
  }
}

/**
 * What `repa doctor` shows about Pi, the models and the sandbox (the `doctor` method's result):
 * Pi's configuration as it is now (the models with credentials and where each comes from, what
 * could not be read), the model a run uses when nothing names one, a space's next model and why,
 * when Pi's files changed, which key variables are set — never a secret — and whether the `bash`
 * tool's sandbox starts here. When Pi's configuration cannot be read, `models.error` says why.
 */
export async function doctorFacts(options: DoctorFactsOptions): Promise<V1Result<'doctor'>> {
  const { PiModels, commandSandboxStatus } = await loadHost();
  const agentDir = await piAgentDir(options.agentDir);
  const env = options.env ?? process.env;
  let models: V1Result<'doctor'>['models'];
  try {
    const pi = options.models ?? (await PiModels.open({ agentDir, readOnly: true }));
    const status = await pi.status();
    const next = await options.next?.();
    models = {
      default: status.defaultModel,
      offline: status.defaultModel === OFFLINE_MODEL_ID,
      available: status.available,
      credentials: status.credentials,
      ...(options.daemonModel ? { daemonModel: options.daemonModel } : {}),
      ...(next ? { next } : {}),
      ...(status.configError ? { configError: status.configError.toWire() } : {}),
    };
  } catch (error) {
    models = {
      default: '',
      offline: false,
      available: [],
      error: RepaError.fromUnknown(error).toWire(),
    };
  }
  const sandbox = await commandSandboxStatus({ path: env.PATH ?? '' });
  const packages = await packageFacts(agentDir);
  const changed = {
    authJson: changedAt(join(agentDir, 'auth.json')),
    modelsJson: changedAt(join(agentDir, 'models.json')),
    settingsJson: changedAt(join(agentDir, 'settings.json')),
  };
  return {
    models,
    sandbox,
    packages,
    ...(options.startedAt ? { startedAt: options.startedAt } : {}),
    pi: {
      agentDir,
      exists: existsSync(agentDir),
      authJson: existsSync(join(agentDir, 'auth.json')),
      modelsJson: existsSync(join(agentDir, 'models.json')),
      changedAt: Object.fromEntries(
        Object.entries(changed).filter(([, value]) => value !== undefined),
      ),
      keyVariables: KEY_VARIABLES,
      keyVariablesSet: KEY_VARIABLES.filter((name) => Boolean(env[name])),
    },
  };
}

/** The application level's Pi packages and Pi's diagnostics of them (spec R75). */
async function packageFacts(
  agentDir: string,
): Promise<NonNullable<V1Result<'doctor'>['packages']>> {
  try {
    const listing = await (await loadHost()).listPiPackages({ agentDir, trusted: false });
    return { configured: listing.packages.length, diagnostics: listing.diagnostics };
  } catch (error) {
    return { configured: 0, diagnostics: [], error: RepaError.fromUnknown(error).toWire() };
  }
}
