import type { AuthEvent, AuthPrompt } from '@earendil-works/pi-ai';
import { type LoginProgress, type LoginType, OFFLINE_MODEL_ID, RepaError } from '@repa/protocol';
import { connectionOf, credentialSourceOf } from './credential-source.js';
import { isUnreachableMessage } from './model-errors.js';
import type { PiModels } from './pi-models.js';

/** A login step without its `loginId` (the caller adds it). */
export type LoginStep = Pick<
  LoginProgress,
  'kind' | 'message' | 'url' | 'userCode' | 'promptId' | 'promptType' | 'options'
>;

/** Options of {@link loginProvider}. */
export interface LoginProviderOptions {
  /** Pi's models of the daemon; the credential lands in Pi's `auth.json` through its runtime. */
  models: PiModels;
  /** Pi's provider id. */
  provider: string;
  /** API key or OAuth. */
  type: LoginType;
  /** Each step Pi reports; a `prompt` step waits for {@link LoginProviderOptions.answer}. */
  onStep(step: LoginStep): void;
  /** Resolves with the answer to the prompt `promptId` (rejects to cancel the login). */
  answer(promptId: string, signal?: AbortSignal): Promise<string>;
  /** Cancels the login. */
  signal?: AbortSignal;
  /** Ends the login as `cancelled` after this long (default 10 minutes); nothing is stored. */
  timeoutMs?: number;
}

/** What a login configured. */
export interface LoginResult {
  /** The connection now configured, e.g. `anthropic:auth-file`. */
  connection: string;
  /** A key variable of the provider in the daemon's environment, now outranked by the stored key. */
  environmentVariable?: string;
}

const LOGIN_TIMEOUT_MS = 10 * 60_000;

/** Pi's provider `provider`, or `not_found` naming the providers Pi knows. */
function knownProvider(models: PiModels, provider: string) {
  const found = models.modelRuntime.getProvider(provider);
  if (found !== undefined && provider !== OFFLINE_MODEL_ID) return found;
  const providers = models.modelRuntime
    .getProviders()
    .map((one) => one.id)
    .filter((id) => id !== OFFLINE_MODEL_ID)
    .sort();
  throw new RepaError('not_found', `Pi knows no provider ${provider}.`, {
    fix: `Use one of Pi's providers: ${providers.join(', ')} (or declare it in Pi's models.json).`,
    details: { provider, providers },
  });
}

/** The daemon's key variable for `provider`, when Pi takes its key from one. */
function environmentVariableOf(models: PiModels, provider: string): string | undefined {
  const { credentialSource, credentialVariable } = credentialSourceOf(
    models.modelRuntime,
    provider,
  );
  return credentialSource === 'environment' ? credentialVariable : undefined;
}

/**
 * Signs in to `provider` through Pi's own login flow (R71) and returns the connection it
 * configured, e.g. `anthropic:auth-file`. Pi stores the credential; Repa never sees it at rest,
 * and the next run uses it. An empty answer is refused (`invalid_request`, nothing stored); a
 * cancelled or timed-out login stores nothing (`cancelled`).
 */
export async function loginProvider(options: LoginProviderOptions): Promise<LoginResult> {
  const { models, provider: providerId } = options;
  const modelRuntime = models.modelRuntime;
  await models.refresh();
  const provider = knownProvider(models, providerId);
  const supported = options.type === 'oauth' ? provider.auth.oauth : provider.auth.apiKey?.login;
  if (supported === undefined) {
    throw new RepaError(
      'invalid_request',
      `Provider ${providerId} has no ${options.type === 'oauth' ? 'OAuth' : 'API-key'} login in Pi.`,
    );
  }
  const variable = environmentVariableOf(models, providerId);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? LOGIN_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let prompts = 0;
  try {
    await modelRuntime.login(providerId, options.type, {
      signal,
      notify: (event) => options.onStep(stepOf(event)),
      prompt: async (prompt) => {
        const promptId = `p${++prompts}`;
        options.onStep(promptStepOf(prompt, promptId));
        const answer = await options.answer(
          promptId,
          prompt.signal ? AbortSignal.any([signal, prompt.signal]) : signal,
        );
        if (prompt.type === 'select') return answer;
        // A pasted key keeps no stray space or line end; an empty one would hide the provider.
        const trimmed = answer.trim();
        if (trimmed === '') {
          throw new RepaError('invalid_request', 'The answer is empty: nothing stored.', {
            fix: `Give the key, e.g. printf '%s\\n' "$KEY" | repa login ${providerId}.`,
            details: { provider: providerId },
          });
        }
        return trimmed;
      },
    });
  } catch (error) {
    if (RepaError.isInstance(error)) throw error;
    if (timeout.aborted) {
      throw new RepaError(
        'cancelled',
        `The login to ${providerId} timed out; nothing was stored.`,
        {
          fix: `Run repa login ${providerId} again and answer within ${Math.round((options.timeoutMs ?? LOGIN_TIMEOUT_MS) / 60_000)} minutes.`,
        },
      );
    }
    if (signal.aborted) {
      throw new RepaError(
        'cancelled',
        `The login to ${providerId} was cancelled; nothing was stored.`,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    if (isUnreachableMessage(message)) {
      throw new RepaError(
        'provider_unreachable',
        `Pi's login could not reach ${providerId}: ${message}`,
        { details: { provider: providerId } },
      );
    }
    throw new RepaError('auth_failed', `Pi's login to ${providerId} failed: ${message}`, {
      fix: `Run repa login ${providerId} again.`,
      details: { provider: providerId },
    });
  }
  await models.refresh();
  return {
    connection: connectionOf(modelRuntime, providerId) ?? `${providerId}:auth-file`,
    ...(variable ? { environmentVariable: variable } : {}),
  };
}

/**
 * Removes Pi's stored credential of `provider` through Pi (`not_found` for a provider Pi does not
 * know); `removed` is false when none was stored. The connection it still has (e.g. a key
 * variable of the daemon's environment) is told.
 */
export async function logoutProvider(
  models: PiModels,
  providerId: string,
): Promise<{ removed: boolean; connection?: string }> {
  await models.refresh();
  knownProvider(models, providerId);
  const stored = (await models.modelRuntime.listCredentials()).some(
    (entry) => entry.providerId === providerId,
  );
  if (stored) await models.modelRuntime.logout(providerId);
  await models.refresh();
  const connection = connectionOf(models.modelRuntime, providerId);
  return { removed: stored, ...(connection ? { connection } : {}) };
}

function stepOf(event: AuthEvent): LoginStep {
  switch (event.type) {
    case 'auth_url':
      return {
        kind: 'auth_url',
        message: event.instructions ?? 'Open this address to sign in.',
        url: event.url,
      };
    case 'device_code':
      return {
        kind: 'device_code',
        message: `Enter the code ${event.userCode} at ${event.verificationUri}.`,
        url: event.verificationUri,
        userCode: event.userCode,
      };
    case 'progress':
      return { kind: 'progress', message: event.message };
    default:
      return {
        kind: 'info',
        message: event.message,
        ...(event.links?.[0] ? { url: event.links[0].url } : {}),
      };
  }
}

function promptStepOf(prompt: AuthPrompt, promptId: string): LoginStep {
  return {
    kind: 'prompt',
    message: prompt.message,
    promptId,
    promptType: prompt.type,
    ...(prompt.type === 'select'
      ? { options: prompt.options.map((option) => ({ id: option.id, label: option.label })) }
      : {}),
  };
}
