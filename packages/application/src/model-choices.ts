import type { DecidedModel, PiModels } from '@repa/host';
import type { ModelDecision, ModelSettings, ModelSettingsSources } from '@repa/protocol';
import type { SettingsStore } from '@repa/settings';
import type { RepaApplicationOptions } from './application-options.js';
import { loadHost, piAgentDir } from './load-host.js';
import type { SpaceTrust } from './space-trust.js';

/** The model a run was accepted with: what the ledger records and the host applies. */
export interface RunModel {
  /** `provider/id`, or `repa-offline`. */
  model: string;
  /** Why that model. */
  source: ModelDecision['source'];
  /** The thinking level, clamped to the model. */
  thinkingLevel: ModelDecision['thinkingLevel'];
  /** The connection it uses (none for `repa-offline`). */
  connection?: string;
}

/**
 * Where the application decides models (spec R71, R72): Pi's models of this daemon, opened at
 * their first use, and the decision of a run's model from its settings levels, the same for
 * `run.submit`, `models.next`, `doctor`, `context.build` and logins.
 */
export class ModelChoices {
  readonly #options: Pick<RepaApplicationOptions, 'agentDir' | 'daemonModel' | 'model'>;
  readonly #settings: SettingsStore;
  readonly #trust: SpaceTrust;
  #models: Promise<PiModels> | undefined;

  constructor(
    options: Pick<RepaApplicationOptions, 'agentDir' | 'daemonModel' | 'model'>,
    settings: SettingsStore,
    trust: SpaceTrust,
  ) {
    this.#options = options;
    this.#settings = settings;
    this.#trust = trust;
  }

  /** The daemon's `--model` (or the fixed model's label), when it has one. */
  get daemonModel(): string | undefined {
    return this.#options.model?.label ?? this.#options.daemonModel;
  }

  /**
   * Pi's models of this daemon, opened once (a failed open is tried again next time), as Pi's
   * configuration is now: every use reads `models.json` again when its file changed (a stat), so
   * a model added while the daemon runs is known at the next request.
   */
  async models(): Promise<PiModels> {
    const models = await this.#opened();
    await models.refreshModels();
    return models;
  }

  #opened(): Promise<PiModels> {
    this.#models ??= (async () => {
      const { PiModels } = await loadHost();
      const fixed = this.#options.model;
      return PiModels.open({
        agentDir: await piAgentDir(this.#options.agentDir),
        daemonModel: this.daemonModel,
        ...(fixed ? { runtime: fixed.modelRuntime } : {}),
      });
    })();
    this.#models.catch(() => {
      this.#models = undefined;
    });
    return this.#models;
  }

  /**
   * The model and thinking level the next run of `space` (and `sessionId`) uses, and why; without
   * a space, the application level's. `model` names one for this decision only (`--model`).
   */
  async next(space?: string, sessionId?: string, model?: string): Promise<DecidedModel> {
    const items = await this.#settings.get({ space, sessionId });
    const item = (key: string) => items.find((one) => one.key === key);
    const modelItem = item('model.id');
    const thinking = item('model.thinkingLevel');
    return this.#decide(
      space,
      {
        model: model ?? (modelItem?.value as string | null | undefined) ?? null,
        thinkingLevel: (thinking?.value as ModelSettings['thinkingLevel'] | undefined) ?? null,
      },
      { model: model ? 'run' : modelItem?.source, thinkingLevel: thinking?.source },
    );
  }

  /**
   * The model of a run whose settings were just decided (spec R20): `auth_failed` when it has no
   * credentials now, so nothing is recorded as accepted.
   */
  async forRun(
    space: string,
    settings: ModelSettings,
    sources: ModelSettingsSources,
  ): Promise<RunModel> {
    const { decision, model } = await this.#decide(space, settings, sources);
    if (!decision.credentials) throw (await loadHost()).noCredentialsError(model);
    return {
      model: decision.model,
      source: decision.source,
      thinkingLevel: decision.thinkingLevel,
      ...(decision.connection ? { connection: decision.connection } : {}),
    };
  }

  async #decide(
    space: string | undefined,
    settings: Pick<ModelSettings, 'model' | 'thinkingLevel'>,
    sources: Partial<Record<'model' | 'thinkingLevel', string>>,
  ): Promise<DecidedModel> {
    const models = await this.models();
    return models.decide({
      model: settings.model,
      modelSource: sources.model,
      thinkingLevel: settings.thinkingLevel,
      thinkingSource: sources.thinkingLevel,
      space,
      trusted: space === undefined ? false : await this.#trust.isTrusted(space),
    });
  }
}
