import { RepaError, type V1Params, type V1Result } from '@repa/protocol';
import type { ContextWrites } from './context-writes.js';
import { loadHost } from './load-host.js';
import type { ModelChoices } from './model-choices.js';
import type { ConnectionContext } from './server/repa-handlers.js';
import type { SpaceTrust } from './space-trust.js';

/** The running `context.build`s, cancellable by their build id. */
export class ContextBuilds {
  readonly #writes: ContextWrites;
  readonly #models: ModelChoices;
  readonly #trust: SpaceTrust;
  readonly #appDirectory: string;
  /** The running builds by build id. */
  readonly #builds = new Map<string, AbortController>();

  constructor(
    writes: ContextWrites,
    models: ModelChoices,
    trust: SpaceTrust,
    appDirectory: string,
  ) {
    this.#writes = writes;
    this.#models = models;
    this.#trust = trust;
    this.#appDirectory = appDirectory;
  }

  /**
   * `context.build` in a resolved space: builds a study context from documents of the space (one
   * standalone model call on the space's model or `params.model`, with Pi's retries and a run's
   * error codes, or extraction on `repa-offline`), telling its steps as
   * `context.progress` to `connection`; cancelled by {@link cancel} or by the connection closing.
   * Nothing is written unless it completes; the write is atomic and revisioned like `context.set`.
   */
  async build(
    space: string,
    params: V1Params<'context.build'>,
    connection: ConnectionContext,
  ): Promise<V1Result<'context.build'>> {
    if (this.#builds.has(params.buildId)) {
      throw new RepaError('busy', `A context build ${params.buildId} is already running.`, {
        fix: 'Use a new build id.',
      });
    }
    const controller = new AbortController();
    this.#builds.set(params.buildId, controller);
    const stopWatching = connection.onClose(() => controller.abort());
    const progress = (step: string, message: string) =>
      connection.notify('context.progress', { buildId: params.buildId, step, message });
    try {
      const host = await loadHost();
      // The space's model, as its next run's (spec R71), or the one `model` names.
      const { decision, model } = await this.#models.next(space, undefined, params.model);
      if (!decision.credentials) throw host.noCredentialsError(model);
      const pi = await this.#models.models();
      const choice = {
        modelRuntime: pi.modelRuntime,
        model,
        label: decision.model,
        offline: decision.offline,
      };
      const built = await host.buildLearningContext(space, choice, {
        sources: params.sources,
        instructions: params.instructions,
        // Outside materials (`repa:material/<id>`) granted to the space are read too.
        appDirectory: this.#appDirectory,
        signal: controller.signal,
        onProgress: ({ step, message }) => progress(step, message),
        piSettings: await pi.piSettings(space, await this.#trust.isTrusted(space)),
        connection: decision.connection,
      });
      const written = await this.#writes.write(space, built.body, async () => {
        if (controller.signal.aborted) {
          throw new RepaError(
            'cancelled',
            'The learning-context build was cancelled; nothing was written.',
          );
        }
        progress('writing', 'writing the learning context');
        return host.setLearningContext(space, {
          body: built.body,
          sources: built.sources,
          sourceVersions: built.sourceVersions,
          expectedRevision: params.expectedRevision,
          force: params.force,
        });
      });
      return {
        revision: written.revision,
        model: built.model,
        extractive: built.extractive,
        cut: built.cut.map((item) => ({ ...item })),
        damagedFileKept: written.damagedFileKept,
      };
    } finally {
      stopWatching();
      this.#builds.delete(params.buildId);
    }
  }

  /** `context.cancel`: aborts a running build; false when none has this id. */
  cancel(buildId: string): boolean {
    const build = this.#builds.get(buildId);
    build?.abort();
    return build !== undefined;
  }
}
