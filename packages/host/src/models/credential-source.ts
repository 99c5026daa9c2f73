import type { ModelRuntime } from '@earendil-works/pi-coding-agent';
import type { CredentialSource } from '@repa/protocol';

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** Pi's auth status of a provider as a credential source (and, for a variable, its name). */
export function credentialSourceOf(
  modelRuntime: ModelRuntime,
  provider: string,
): { credentialSource?: CredentialSource; credentialVariable?: string } {
  const status = modelRuntime.getProviderAuthStatus(provider);
  if (!status.configured) return {};
  switch (status.source) {
    case 'stored':
      return { credentialSource: modelRuntime.isUsingOAuth(provider) ? 'oauth' : 'auth-file' };
    case 'environment':
      // Pi labels it with the variable's name; anything else is not shown (it could be a value).
      return {
        credentialSource: 'environment',
        ...(status.label && ENV_NAME.test(status.label)
          ? { credentialVariable: status.label }
          : {}),
      };
    case 'models_json_key':
    case 'models_json_command':
      return { credentialSource: 'models-json' };
    case 'runtime':
      return { credentialSource: 'runtime' };
    case 'fallback':
      return { credentialSource: 'fallback' };
    default:
      return {};
  }
}

/**
 * The connection a run uses: its provider and credential source, e.g. `anthropic:environment`
 * (R71); `undefined` when Pi reports no credentials for the provider.
 */
export function connectionOf(modelRuntime: ModelRuntime, provider: string): string | undefined {
  const { credentialSource } = credentialSourceOf(modelRuntime, provider);
  return credentialSource ? `${provider}:${credentialSource}` : undefined;
}
