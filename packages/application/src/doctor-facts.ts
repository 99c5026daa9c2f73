import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelChoice } from '@repa/host';
import { RepaError, type V1Result } from '@repa/protocol';
import { loadHost } from './load-host.js';

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
  /** The model in use; default: the one the daemon would choose from Pi's configuration. */
  model?: ModelChoice;
  /**
   * The environment whose key variables are reported (names only) and whose `PATH` is searched for
   * the sandbox's `bwrap`. Default `process.env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * What `repa doctor` shows about Pi, the models and the sandbox (the `doctor` method's result): the
 * model, the models with credentials, Pi's agent directory, which key variables are set — never a
 * secret — and whether the `bash` tool's sandbox starts here (the check a run makes). When no
 * model is given and Pi's configuration cannot be read, `models.error` says why.
 */
export async function doctorFacts(options: DoctorFactsOptions): Promise<V1Result<'doctor'>> {
  const { chooseModel, commandSandboxStatus, defaultAgentDir } = await loadHost();
  const agentDir = options.agentDir ?? defaultAgentDir();
  const env = options.env ?? process.env;
  let models: V1Result<'doctor'>['models'];
  try {
    const choice = options.model ?? (await chooseModel({ agentDir, readOnly: true }));
    const available = choice.offline
      ? []
      : (await choice.modelRuntime.getAvailable()).map((model) => `${model.provider}/${model.id}`);
    models = { default: choice.label, offline: choice.offline, available };
  } catch (error) {
    models = {
      default: '',
      offline: false,
      available: [],
      error: RepaError.fromUnknown(error).toWire(),
    };
  }
  const sandbox = await commandSandboxStatus({ path: env.PATH ?? '' });
  return {
    models,
    sandbox,
    pi: {
      agentDir,
      exists: existsSync(agentDir),
      authJson: existsSync(join(agentDir, 'auth.json')),
      modelsJson: existsSync(join(agentDir, 'models.json')),
      keyVariables: KEY_VARIABLES,
      keyVariablesSet: KEY_VARIABLES.filter((name) => Boolean(env[name])),
    },
  };
}
