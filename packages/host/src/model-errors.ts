import type { Model } from '@earendil-works/pi-ai';
import { RepaError } from '@repa/protocol';

// Pi's providers put the HTTP status first ("401: {…}", "429 Too Many Requests").
const STATUS = /^(\d{3})(?:[\s:]|$)/;
const RATE_LIMIT = /rate.?limit|too many requests/i;
const UNREACHABLE =
  /connection error|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|fetch failed|socket hang up|network error|request timed out|timeout/i;

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

/**
 * The Repa error for a model call Pi ended with `stopReason: 'error'`: the provider's HTTP status
 * and Pi's message decide between `auth_failed`, `rate_limited`, `provider_unreachable` and
 * `model_error`. Contract: never `internal`; the message keeps the provider's own words.
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
    const retried = retries
      ? ` Pi retried ${retries.attempts} time${retries.attempts === 1 ? '' : 's'}, the last after ${retries.lastDelayMs} ms.`
      : '';
    return new RepaError(
      'rate_limited',
      `Provider ${model.provider} is limiting requests for ${label}: ${errorMessage}${retried}`,
      {
        details: {
          ...facts,
          ...(retries ? { retries: retries.attempts, lastRetryDelayMs: retries.lastDelayMs } : {}),
        },
      },
    );
  }
  if (Number.isNaN(status) && UNREACHABLE.test(errorMessage)) {
    const host = hostOf(model);
    return new RepaError(
      'provider_unreachable',
      `Could not reach ${model.provider}${host ? ` at ${host}` : ''} for ${label}: ${errorMessage}`,
      { details: { ...facts, ...(host ? { host } : {}) } },
    );
  }
  return new RepaError('model_error', errorMessage, { details: facts });
}
