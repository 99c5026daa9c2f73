import { join } from 'node:path';
import type { AuthEvent, AuthPrompt } from '@earendil-works/pi-ai';
import { ModelRuntime } from '@earendil-works/pi-coding-agent';
import { type LoginProgress, type LoginType, RepaError } from '@repa/protocol';
import { connectionOf } from './credential-source.js';
import { isUnreachableMessage } from './model-errors.js';

/** A login step without its `loginId` (the caller adds it). */
export type LoginStep = Pick<
  LoginProgress,
  'kind' | 'message' | 'url' | 'userCode' | 'promptId' | 'promptType' | 'options'
>;

/** Options of {@link loginProvider}. */
export interface LoginProviderOptions {
  /** Pi's configuration directory; the credential lands in its `auth.json`. */
  agentDir: string;
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
}

/**
 * Signs in to `provider` through Pi's own login flow (R71) and returns the connection it
 * configured, e.g. `anthropic:auth-file`. Pi stores the credential; Repa never sees it at rest.
 */
export async function loginProvider(
  options: LoginProviderOptions,
): Promise<{ connection: string }> {
  const modelRuntime = await ModelRuntime.create({
    authPath: join(options.agentDir, 'auth.json'),
    modelsPath: join(options.agentDir, 'models.json'),
    allowModelNetwork: false,
    refreshOnCreate: false,
  });
  const provider = modelRuntime.getProvider(options.provider);
  if (provider === undefined) {
    throw new RepaError(
      'not_found',
      `Pi knows no provider ${options.provider} (see repa models --all).`,
    );
  }
  const supported = options.type === 'oauth' ? provider.auth.oauth : provider.auth.apiKey?.login;
  if (supported === undefined) {
    throw new RepaError(
      'invalid_request',
      `Provider ${options.provider} has no ${options.type === 'oauth' ? 'OAuth' : 'API-key'} login in Pi.`,
    );
  }
  let prompts = 0;
  try {
    await modelRuntime.login(options.provider, options.type, {
      ...(options.signal ? { signal: options.signal } : {}),
      notify: (event) => options.onStep(stepOf(event)),
      prompt: (prompt) => {
        const promptId = `p${++prompts}`;
        options.onStep(promptStepOf(prompt, promptId));
        return options.answer(promptId, prompt.signal);
      },
    });
  } catch (error) {
    if (error instanceof RepaError) throw error;
    if (options.signal?.aborted)
      throw new RepaError('cancelled', `The login to ${options.provider} was cancelled.`);
    const message = error instanceof Error ? error.message : String(error);
    if (isUnreachableMessage(message)) {
      throw new RepaError(
        'provider_unreachable',
        `Pi's login could not reach ${options.provider}: ${message}`,
        { details: { provider: options.provider } },
      );
    }
    throw new RepaError('auth_failed', `Pi's login to ${options.provider} failed: ${message}`, {
      fix: `Run repa login ${options.provider} again.`,
      details: { provider: options.provider },
    });
  }
  return {
    connection: connectionOf(modelRuntime, options.provider) ?? `${options.provider}:auth-file`,
  };
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
