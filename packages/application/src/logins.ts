import type { LoginResult } from '@repa/host';
import { RepaError, type V1Params } from '@repa/protocol';
import { loadHost } from './load-host.js';
import type { ModelChoices } from './model-choices.js';
import type { ConnectionContext } from './server/repa-handlers.js';

/** The running logins, with their prompts waiting for `login.answer`. */
export class Logins {
  readonly #models: ModelChoices;
  /** The running logins by `loginId`: what cancels each, and its prompts waiting by `promptId`. */
  readonly #running = new Map<
    string,
    { controller: AbortController; waiting: Map<string, (value: string) => void> }
  >();

  /** `models`: Pi's models of the daemon; Pi stores the credential through their runtime. */
  constructor(models: ModelChoices) {
    this.#models = models;
  }

  /**
   * `login.start`: Pi's own login for a provider, its steps sent as `login.progress` to
   * `connection` and its prompts answered by {@link answer}; cancelled by {@link cancel} or when
   * the connection closes.
   */
  async start(
    params: V1Params<'login.start'>,
    connection: ConnectionContext,
  ): Promise<LoginResult> {
    if (this.#running.has(params.loginId)) {
      throw new RepaError('busy', `A login ${params.loginId} is already running.`, {
        fix: 'Use a new login id.',
      });
    }
    const waiting = new Map<string, (value: string) => void>();
    const controller = new AbortController();
    this.#running.set(params.loginId, { controller, waiting });
    const stopWatching = connection.onClose(() => controller.abort());
    try {
      const { loginProvider } = await loadHost();
      return await loginProvider({
        models: await this.#models.models(),
        provider: params.provider,
        type: params.type,
        signal: controller.signal,
        onStep: (step) => connection.notify('login.progress', { loginId: params.loginId, ...step }),
        answer: (promptId, signal) =>
          new Promise<string>((resolve, reject) => {
            const cancel = () => {
              waiting.delete(promptId);
              reject(new RepaError('cancelled', 'The login prompt was cancelled.'));
            };
            if (controller.signal.aborted || signal?.aborted) return cancel();
            controller.signal.addEventListener('abort', cancel, { once: true });
            signal?.addEventListener('abort', cancel, { once: true });
            waiting.set(promptId, resolve);
          }),
      });
    } finally {
      stopWatching();
      this.#running.delete(params.loginId);
    }
  }

  /** `login.cancel`: cancels a running login; false when none runs under `loginId`. */
  cancel(loginId: string): boolean {
    const running = this.#running.get(loginId);
    running?.controller.abort();
    return running !== undefined;
  }

  /** `login.answer`: answers a waiting prompt; false when no login waits for it. */
  answer(params: V1Params<'login.answer'>): boolean {
    const waiting = this.#running.get(params.loginId)?.waiting;
    const resolve = waiting?.get(params.promptId);
    waiting?.delete(params.promptId);
    resolve?.(params.value);
    return resolve !== undefined;
  }

  /** `login.logout`: removes Pi's stored credential of `provider` through Pi. */
  async logout(provider: string): Promise<{ removed: boolean; connection?: string }> {
    const { logoutProvider } = await loadHost();
    return logoutProvider(await this.#models.models(), provider);
  }
}
