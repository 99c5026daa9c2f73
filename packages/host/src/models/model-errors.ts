import type { Model } from '@earendil-works/pi-ai';
import { RepaError } from '@repa/protocol';

// Pi's providers put the HTTP status first ("401: {…}", "429 Too Many Requests").
const STATUS = /^(\d{3})(?:[\s:]|$)/;
const RATE_LIMIT = /rate.?limit|too many requests/i;
const UNREACHABLE =
  /connection error|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|fetch failed|socket hang up|network error|request timed out|timeout/i;
// The reply's stream ended before the provider finished it (undici says "terminated").
const DROPPED = /^terminated$|other side closed|stream ended before|ended without/i;
const OVERLOADED = /overloaded/i;
// Pi found no credentials for the provider when the request was made (removed or expired).
const NOT_CONFIGURED = /Provider is not configured|No API key|no credentials/i;

/** Whether Pi's error message says the provider could not be reached (network, DNS, timeout). */
export function isUnreachableMessage(message: string): boolean {
  return UNREACHABLE.test(message);
}

function hostOf(model: Model<string>): string | undefined {
  try {
    return new URL(model.baseUrl).host || undefined;
  } catch {
    return undefined;
  }
}

/** The `auth_failed` of a model whose connection has no credentials (any more). */
export function noCredentialsError(model: Model<string>, connection?: string): RepaError {
  const label = `${model.provider}/${model.id}`;
  return new RepaError(
    'auth_failed',
    connection
      ? `The connection ${connection} of ${label} has no credentials now (removed or expired).`
      : `Model ${label} has no credentials in Pi's configuration.`,
    {
      fix: `Log in again (repa login ${model.provider}) or add a key for ${model.provider} to Pi's auth.json; see repa doctor.`,
      details: {
        provider: model.provider,
        model: model.id,
        ...(connection ? { connection } : {}),
      },
    },
  );
}

/**
 * The Repa error for a model call Pi ended with `stopReason: 'error'`: the provider's HTTP status
 * and Pi's message decide between `auth_failed`, `rate_limited`, `provider_overloaded`,
 * `provider_unreachable` and `model_error`. Contract: never `internal`; the message keeps the
 * provider's own words.
 */
export function modelErrorOf(
  errorMessage: string,
  model: Model<string>,
  connection?: string,
  retries?: { attempts: number; lastDelayMs: number },
): RepaError {
  const label = `${model.provider}/${model.id}`;
  const status = Number(STATUS.exec(errorMessage.trim())?.[1] ?? Number.NaN);
  const facts = {
    provider: model.provider,
    model: model.id,
    ...(connection ? { connection } : {}),
    ...(Number.isNaN(status) ? {} : { status }),
  };
  if (Number.isNaN(status) && NOT_CONFIGURED.test(errorMessage)) {
    return noCredentialsError(model, connection);
  }
  const retried = retries
    ? ` Pi retried ${retries.attempts} time${retries.attempts === 1 ? '' : 's'}, the last after ${retries.lastDelayMs} ms.`
    : '';
  const retryFacts = retries
    ? { retries: retries.attempts, lastRetryDelayMs: retries.lastDelayMs }
    : {};
  if (status === 529 || (status !== 429 && OVERLOADED.test(errorMessage))) {
    return new RepaError(
      'provider_overloaded',
      `Provider ${model.provider} is overloaded for ${label}: ${errorMessage}${retried}`,
      { details: { ...facts, ...retryFacts } },
    );
  }
  if (status === 401 || status === 403) {
    return new RepaError(
      'auth_failed',
      `Provider ${model.provider} refused the credentials${connection ? ` of connection ${connection}` : ''} for ${label}: ${errorMessage}`,
      {
        fix: `Renew the key or log in again for ${model.provider} (see \`repa models\`), then retry.`,
        details: facts,
      },
    );
  }
  if (status === 429 || (Number.isNaN(status) && RATE_LIMIT.test(errorMessage))) {
    return new RepaError(
      'rate_limited',
      `Provider ${model.provider} is limiting requests for ${label}: ${errorMessage}${retried}`,
      { details: { ...facts, ...retryFacts } },
    );
  }
  if (Number.isNaN(status) && DROPPED.test(errorMessage)) {
    const host = hostOf(model);
    return new RepaError(
      'provider_unreachable',
      `The connection to ${model.provider}${host ? ` at ${host}` : ''} dropped before the reply of ${label} ended: ${errorMessage}${retried}`,
      { details: { ...facts, ...(host ? { host } : {}), ...retryFacts } },
    );
  }
  if (Number.isNaN(status) && UNREACHABLE.test(errorMessage)) {
    const host = hostOf(model);
    return new RepaError(
      'provider_unreachable',
      `Could not reach ${model.provider}${host ? ` at ${host}` : ''} for ${label}: ${errorMessage}${retried}`,
      { details: { ...facts, ...(host ? { host } : {}), ...retryFacts } },
    );
  }
  return new RepaError('model_error', errorMessage, { details: facts });
}
