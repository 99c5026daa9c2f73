import { statSync } from 'node:fs';
import { join } from 'node:path';
import { clampThinkingLevel, InMemoryModelsStore, type Model } from '@earendil-works/pi-ai';
import { ModelRuntime, SettingsManager } from '@earendil-works/pi-coding-agent';
import {
  type CredentialSource,
  type ModelDecision,
  type ModelInfo,
  OFFLINE_MODEL_ID,
  RepaError,
  type ThinkingLevel,
} from '@repa/protocol';
import { checkTrustedPiFiles } from '../trust/index.js';
import { connectionOf, credentialSourceOf } from './credential-source.js';
import { findModel } from './find-model.js';
import { createOfflineProvider } from './offline-model.js';
import { piDefaultModel, readOnlyCredentials } from './pi-default-model.js';

/** Options of {@link PiModels.open}. */
export interface PiModelsOptions {
  /** Pi's configuration directory (`auth.json`, `models.json`, `settings.json`). */
  agentDir: string;
  /** The daemon's `--model` (`provider/id` or `repa-offline`): the default of `model.id`. */
  daemonModel?: string | undefined;
  /** Read Pi's credentials without creating, locking or writing `auth.json` (`repa doctor`). */
  readOnly?: boolean;
  /**
   * A ready Pi runtime whose models stand in for Pi's configuration (tests and embedders).
   * @internal
   */
  runtime?: ModelRuntime;
}

/** What one run's model is decided from: the settings (or one-run overrides) and their levels. */
export interface ModelRequest {
  /** `model.id` as decided by the levels or a one-run override; null or absent: none set. */
  model?: string | null | undefined;
  /** The level `model` came from (`run` for a one-run override). */
  modelSource?: string | undefined;
  /** `model.thinkingLevel` as decided; null or absent: Pi's default level. */
  thinkingLevel?: ThinkingLevel | null | undefined;
  /** The level `thinkingLevel` came from. */
  thinkingSource?: string | undefined;
  /** The space of the run: a trusted space's own Pi settings count for Pi's default level. */
  space?: string | undefined;
  /** Whether that space is trusted (spec R13). */
  trusted?: boolean | undefined;
}

/** A decided model: what the run records, and Pi's model object it talks to. */
export interface DecidedModel {
  /** The model, its thinking level and why (recorded with the run, spec R71, R72). */
  decision: ModelDecision;
  /** Pi's model. */
  model: Model<string>;
}

/** Pi's configuration as `repa doctor` reports it (never a secret). */
export interface PiModelsStatus {
  /** The model a run uses when no level sets `model.id`. */
  defaultModel: string;
  /** Every model Pi has credentials for now (`repa-offline` not counted). */
  available: string[];
  /** Each provider with credentials and where they come from. */
  credentials: {
    provider: string;
    credentialSource: CredentialSource;
    credentialVariable?: string;
    models: number;
  }[];
  /** Part of Pi's configuration that could not be read (e.g. `models.json`). */
  configError?: RepaError;
}

const LEVELS = new Set(['run', 'session', 'space', 'application']);

/** A file's identity and state, so a change (even a same-size rewrite) is seen. */
function revision(path: string): string {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return 'none';
  }
}

/**
 * Pi's models and credentials as one daemon sees them (spec R71): one Pi `ModelRuntime` every
 * session talks through, holding Pi's configuration and the offline responder `repa-offline`.
 * Pi's `auth.json` is read again by Pi whenever it changed, `models.json` when its file changed,
 * so a key stored by a login, by hand or by `pi` is used by the next run without a restart. One
 * place decides a run's model ({@link PiModels.decide}): `model.id` from the levels or a one-run
 * override, else the daemon's `--model`, else Pi's own default among the models with credentials
 * now, else `repa-offline`.
 */
export class PiModels {
  /** Pi's configuration directory. */
  readonly agentDir: string;
  /** Pi's runtime: discovery, auth and every model call of every session. */
  readonly modelRuntime: ModelRuntime;
  /** The daemon's `--model`, when given. */
  readonly daemonModel: string | undefined;
  readonly #fixed: boolean;
  #modelsRevision: string | undefined;
  #refreshing: Promise<void> | undefined;
  #piDefault: { key: string; model: Model<string> | undefined } | undefined;

  private constructor(agentDir: string, runtime: ModelRuntime, options: PiModelsOptions) {
    this.agentDir = agentDir;
    this.modelRuntime = runtime;
    this.daemonModel = options.daemonModel;
    this.#fixed = options.runtime !== undefined;
  }

  /**
   * Opens Pi's configuration in `agentDir` (or wraps a given runtime) with `repa-offline` added.
   * `not_found` (with the closest ids) when the daemon's `--model` is a model Pi does not know.
   */
  static async open(options: PiModelsOptions): Promise<PiModels> {
    const { agentDir } = options;
    const modelsRevision = revision(join(agentDir, 'models.json'));
    const runtime =
      options.runtime ??
      (await ModelRuntime.create({
        // Read-only (`repa doctor` without a daemon): nothing is created or written in agentDir.
        ...(options.readOnly
          ? {
              credentials: await readOnlyCredentials(join(agentDir, 'auth.json')),
              modelsStore: new InMemoryModelsStore(),
            }
          : { authPath: join(agentDir, 'auth.json') }),
        modelsPath: join(agentDir, 'models.json'),
        allowModelNetwork: false,
        refreshOnCreate: false,
      }));
    runtime.registerNativeProvider(createOfflineProvider().provider);
    // Registering starts a refresh Pi does not await; one awaited here ends after it, so its
    // late snapshot cannot undo credentials read after `open` (an auth.json edited at once).
    await runtime.refresh({ allowNetwork: false });
    const models = new PiModels(agentDir, runtime, options);
    models.#modelsRevision = modelsRevision;
    await models.refresh();
    if (options.daemonModel) models.resolve(options.daemonModel);
    return models;
  }

  /**
   * Reads Pi's configuration again where it changed: `models.json` (by its file's state) and the
   * credentials (Pi reads `auth.json` again when it changed). Environment variables are the
   * daemon's, read when it started.
   */
  refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        const modelsRevision = revision(join(this.agentDir, 'models.json'));
        if (!this.#fixed && modelsRevision !== this.#modelsRevision) {
          this.#modelsRevision = modelsRevision;
          await this.modelRuntime.refresh({ allowNetwork: false });
        } else {
          await this.modelRuntime.getAvailable();
        }
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  /**
   * Reads `models.json` again only when its file changed (one stat when it did not): every use of
   * the daemon's models starts here, so a model added while it runs is known at the next request.
   */
  async refreshModels(): Promise<void> {
    if (this.#fixed || revision(join(this.agentDir, 'models.json')) === this.#modelsRevision)
      return;
    await this.refresh();
  }

  /** Pi's model for `provider/id` or `repa-offline`; `not_found` with a did-you-mean otherwise. */
  resolve(label: string): Model<string> {
    if (label === OFFLINE_MODEL_ID) return this.#offlineModel();
    return findModel(
      this.modelRuntime,
      label,
      'Use provider/id as listed by `repa models --all`, or repa-offline.',
    );
  }

  /** The label users see: `provider/id`, or `repa-offline`. */
  static labelOf(model: Model<string>): string {
    return model.provider === OFFLINE_MODEL_ID ? OFFLINE_MODEL_ID : `${model.provider}/${model.id}`;
  }

  /** Every model Pi has credentials for now (`repa-offline` not counted). */
  available(): Model<string>[] {
    return this.modelRuntime
      .getAvailableSnapshot()
      .filter((model) => model.provider !== OFFLINE_MODEL_ID) as Model<string>[];
  }

  /**
   * The model a run uses when no level sets `model.id`, and why: the daemon's `--model`, else Pi's
   * own default among the models with credentials now, else `repa-offline`.
   */
  async defaultModel(): Promise<{
    model: Model<string>;
    label: string;
    source: ModelDecision['source'];
  }> {
    const chosen = await this.#defaultModel();
    return { ...chosen, label: PiModels.labelOf(chosen.model) };
  }

  async #defaultModel(): Promise<{ model: Model<string>; source: ModelDecision['source'] }> {
    if (this.daemonModel) return { model: this.resolve(this.daemonModel), source: 'daemon' };
    const available = this.available();
    const key = [
      ...available.map((model) => `${model.provider}/${model.id}`),
      revision(join(this.agentDir, 'settings.json')),
    ].join('\n');
    if (this.#piDefault?.key !== key) {
      const model =
        available.length === 0 ? undefined : await piDefaultModel(this.modelRuntime, this.agentDir);
      this.#piDefault = { key, model };
    }
    const model = this.#piDefault.model;
    return model
      ? { model, source: 'pi-default' }
      : { model: this.#offlineModel(), source: 'no-credentials' };
  }

  /**
   * Decides the model and thinking level of a run (spec R71, R72), as Pi's configuration is now.
   * `not_found` (did-you-mean) for a model Pi does not know; a model without credentials is
   * decided with `credentials: false` (the caller refuses the run). Pi's credentials are read
   * again unless the model is named as `repa-offline`, whose decision does not depend on them.
   */
  async decide(request: ModelRequest = {}): Promise<DecidedModel> {
    if ((request.model || this.daemonModel) !== OFFLINE_MODEL_ID) await this.refresh();
    const chosen = request.model
      ? {
          model: this.resolve(request.model),
          // A model named without its level is one named for this run.
          source: (LEVELS.has(request.modelSource ?? '')
            ? request.modelSource
            : 'run') as ModelDecision['source'],
        }
      : await this.defaultModel();
    const { model } = chosen;
    const offline = model.provider === OFFLINE_MODEL_ID;
    const level = request.thinkingLevel ?? (await this.#piThinkingLevel(request)) ?? 'off';
    const thinkingSource =
      request.thinkingLevel && LEVELS.has(request.thinkingSource ?? '')
        ? (request.thinkingSource as ModelDecision['thinkingSource'])
        : 'pi-default';
    const connection = offline ? undefined : connectionOf(this.modelRuntime, model.provider);
    const decision: ModelDecision = {
      model: PiModels.labelOf(model),
      source: chosen.source,
      thinkingLevel: clampThinkingLevel(model, level) as ThinkingLevel,
      thinkingSource,
      offline,
      credentials: offline || this.modelRuntime.hasConfiguredAuth(model.provider),
      ...(connection ? { connection } : {}),
    };
    return { decision, model };
  }

  /**
   * Every model Pi knows, with where its credentials come from (never the secret), and
   * `repa-offline`; credentialed first (`repa-offline` last of them), then by `provider/id`.
   */
  async list(options: { all?: boolean } = {}): Promise<ModelInfo[]> {
    await this.refresh();
    const { label: defaultLabel } = await this.defaultModel();
    const credentialed = new Set(this.available().map((model) => PiModels.labelOf(model)));
    const offline = this.#offlineModel();
    const infos = this.modelRuntime
      .getModels()
      .filter((model) => model.provider !== OFFLINE_MODEL_ID)
      .map((model): ModelInfo => {
        const id = `${model.provider}/${model.id}`;
        const credentials = credentialed.has(id);
        return {
          id,
          provider: model.provider,
          name: model.name,
          contextWindow: model.contextWindow,
          reasoning: model.reasoning,
          credentials,
          ...(credentials ? credentialSourceOf(this.modelRuntime, model.provider) : {}),
          default: id === defaultLabel,
        };
      })
      .filter((model) => options.all || model.credentials)
      .sort((a, b) => Number(b.credentials) - Number(a.credentials) || a.id.localeCompare(b.id));
    const firstWithout = infos.findIndex((model) => !model.credentials);
    infos.splice(firstWithout < 0 ? infos.length : firstWithout, 0, {
      id: OFFLINE_MODEL_ID,
      provider: OFFLINE_MODEL_ID,
      name: offline.name,
      contextWindow: offline.contextWindow,
      reasoning: false,
      credentials: true,
      default: defaultLabel === OFFLINE_MODEL_ID,
      offline: true,
    });
    return infos;
  }

  /** Pi's configuration now, for `repa doctor` (never a secret). */
  async status(): Promise<PiModelsStatus> {
    await this.refresh();
    const available = this.available();
    // Each provider with the number of its models that can be used now.
    const byProvider = new Map<string, number>();
    for (const model of available) {
      byProvider.set(model.provider, (byProvider.get(model.provider) ?? 0) + 1);
    }
    const credentials = [...byProvider].flatMap(([provider, count]) => {
      const { credentialSource, credentialVariable } = credentialSourceOf(
        this.modelRuntime,
        provider,
      );
      if (!credentialSource) return [];
      return [
        {
          provider,
          credentialSource,
          ...(credentialVariable ? { credentialVariable } : {}),
          models: count,
        },
      ];
    });
    const configError = this.configError();
    return {
      defaultModel: (await this.defaultModel()).label,
      available: available.map((model) => PiModels.labelOf(model)),
      credentials,
      ...(configError ? { configError } : {}),
    };
  }

  /**
   * What of Pi's configuration could not be read, as Pi reports it (e.g. a `models.json` that
   * does not parse, with the file and the parse error); the other models keep working.
   */
  configError(): RepaError | undefined {
    const error = this.modelRuntime.getError();
    if (!error) return undefined;
    const file = join(this.agentDir, 'models.json');
    return new RepaError('settings_corrupt', `Pi's configuration has an error: ${error}`, {
      fix: `Repair ${file} (see Pi's models documentation) or remove it; the other models keep working.`,
      details: { file },
    });
  }

  #offlineModel(): Model<string> {
    const model = this.modelRuntime.getModel(OFFLINE_MODEL_ID, OFFLINE_MODEL_ID);
    if (!model) throw new RepaError('internal', 'The offline responder did not register.');
    return model as Model<string>;
  }

  /**
   * Pi's settings as a run in `space` reads them: Pi's configuration directory, and a trusted
   * space's own `.pi/settings.json` (spec R13: checked safe to read first).
   */
  async piSettings(space?: string, trusted = false): Promise<SettingsManager> {
    const own = space !== undefined && trusted;
    if (own) await checkTrustedPiFiles(space);
    return SettingsManager.create(own ? space : this.agentDir, this.agentDir, {
      projectTrusted: own,
    });
  }

  /** Pi's default thinking level: its settings, a trusted space's own Pi settings included. */
  async #piThinkingLevel(request: ModelRequest): Promise<ThinkingLevel | undefined> {
    const settings = await this.piSettings(request.space, request.trusted ?? false);
    return settings.getDefaultThinkingLevel() as ThinkingLevel | undefined;
  }
}
