import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import {
  type ModelSettings,
  type PromptSettings,
  RepaError,
  type SettingItemView,
  type SettingsLevel,
  type WritableSettingsLevel,
} from '@repa/protocol';
import {
  idSchema,
  modelSettingsSchema,
  promptSettingsSchema,
  writableSettingsLevelSchema,
} from '@repa/protocol/schemas';
import { buildView, type Layers, layersOf } from './setting-view.js';
import {
  findForbiddenKey,
  isForbiddenKey,
  type ScopeTarget,
  type SettingsDocument,
  type SettingsFileKind,
} from './settings-document.js';
import { readSettingsDocument, settingsIoError, updateSettingsDocument } from './settings-file.js';
import {
  modelSettingItems,
  promptSettingItems,
  type SettingItemDefinition,
  type SettingsRegistry,
  settingsRegistry,
} from './settings-registry.js';
import {
  checkRepaFolder,
  prepareSpace,
  readSpaceDocument,
  SPACE_FILE,
} from './space-settings-folder.js';

/** The application settings file inside the application directory (spec R15). */
const APPLICATION_FILE = 'repa-settings.json';

/** Where a settings call applies: the application alone, a space, or a session in a space. */
export interface SettingsScope {
  /** Absolute path of the space root; needed for the `space` and `session` levels. */
  space?: string | undefined;
  /** Session id inside `space`; needed for the `session` level. */
  sessionId?: string | undefined;
}

/** Input of {@link SettingsStore.reset}. */
export interface ResetSettingInput extends SettingsScope {
  /** The level whose override is removed. */
  level: WritableSettingsLevel;
  /** Dotted item key, e.g. `prompts.base`. */
  key: string;
  /** Refuse with `stale_version` unless the item's revision at `level` is this (0 = never written). */
  expectedRevision?: number | undefined;
}

/** Input of {@link SettingsStore.set}. */
export interface SetSettingInput extends ResetSettingInput {
  /** The complete new value of the item at `level`. */
  value: unknown;
}

/** The prompt settings decided for one run, with where each came from (spec R20). */
export interface RunSettingsSnapshot {
  /** The effective `prompts.*` values. */
  promptSettings: PromptSettings;
  /** The level each value came from. */
  sources: Record<keyof PromptSettings, SettingsLevel>;
  /** The scope counters the values were read at (0 for a scope never written). */
  revisions: { application: number; space: number; session: number };
  /** The effective `model.*` and `tools.*` values. */
  modelSettings: ModelSettings;
  /** The level each model setting came from. */
  modelSources: Record<keyof ModelSettings, SettingsLevel>;
}

/** Options of a {@link SettingsStore}. */
export interface SettingsStoreOptions {
  /** The application config directory, e.g. from `resolveAppDirectory()`. */
  appDirectory: string;
  /** The items the store knows. Default: Repa's `settingsRegistry`. */
  registry?: SettingsRegistry | undefined;
  /** The file system settings files are read and written through (tests inject faults here). @internal */
  fs?: FsLayer | undefined;
  /**
   * Whether the learner trusts a space (spec R13). An untrusted space's own overrides of items
   * that need trust are ignored, and writing them at the space or session level is refused with
   * `space_untrusted`. Default: no space is trusted.
   */
  isTrusted?: ((space: string) => boolean | Promise<boolean>) | undefined;
}

interface CheckedScope {
  readonly space: string | undefined;
  readonly sessionId: string | undefined;
}

function invalid(message: string, details: Record<string, unknown>): RepaError {
  return new RepaError('invalid_request', message, { details });
}

function isJsonData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonData);
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every(isJsonData);
}

function checkScope(scope: SettingsScope): CheckedScope {
  const { space, sessionId } = scope;
  if (space !== undefined && (typeof space !== 'string' || !isAbsolute(space))) {
    throw invalid('"space" must be the absolute path of the space root.', { field: 'space' });
  }
  if (sessionId !== undefined) {
    if (!idSchema.safeParse(sessionId).success || isForbiddenKey(sessionId)) {
      throw invalid(
        '"sessionId" must be 1 to 200 characters, and not __proto__, constructor or prototype.',
        {
          field: 'sessionId',
        },
      );
    }
    if (space === undefined) {
      throw invalid('A "sessionId" needs the "space" it belongs to.', { field: 'space' });
    }
  }
  return { space: space === undefined ? undefined : resolve(space), sessionId };
}

/**
 * Reads and writes Repa's settings: application overrides in `<appDirectory>/repa-settings.json`,
 * space and session overrides in `<space>/.repa/settings.json`, resolved
 * default < application < space < session (spec R10–R16).
 */
export class SettingsStore {
  /** The application config directory. */
  readonly appDirectory: string;
  /** The items this store knows. */
  readonly registry: SettingsRegistry;
  readonly #fs: FsLayer;
  readonly #isTrusted: SettingsStoreOptions['isTrusted'];

  constructor(options: SettingsStoreOptions) {
    this.appDirectory = resolve(options.appDirectory);
    this.registry = options.registry ?? settingsRegistry;
    this.#fs = options.fs ?? nodeFsLayer;
    this.#isTrusted = options.isTrusted;
  }

  /** Every item's effective value, source, default, overrides and revisions for a scope. */
  async get(scope: SettingsScope = {}): Promise<SettingItemView[]> {
    const layers = await this.readLayers(checkScope(scope));
    return this.registry.items.map((item) => buildView(item, layers));
  }

  /** Stores one complete item value at one level; returns the item's view for the given scope. */
  async set(input: SetSettingInput): Promise<SettingItemView> {
    const { item, level, scope } = this.checkWrite(input);
    await this.checkTrust(item, level, scope);
    const value = input.value;
    if (!isJsonData(value)) {
      throw invalid(
        `Setting '${item.key}' needs a JSON value (no functions, NaN or class objects).`,
        {
          key: item.key,
        },
      );
    }
    const forbidden = findForbiddenKey(value);
    if (forbidden !== undefined) {
      throw invalid(`Setting '${item.key}' contains the forbidden key ${forbidden}.`, {
        key: item.key,
      });
    }
    const parsed = item.schema.safeParse(value);
    if (!parsed.success) {
      const problem = parsed.error.issues[0]?.message ?? 'invalid value';
      throw invalid(`Setting '${item.key}' has the wrong type: ${problem}.`, {
        key: item.key,
        problem,
      });
    }
    return this.write(level, scope, item, input.expectedRevision, { value: parsed.data });
  }

  /** Removes one level's override of an item; a reset without an override writes nothing. */
  async reset(input: ResetSettingInput): Promise<SettingItemView> {
    const { item, level, scope } = this.checkWrite(input);
    return this.write(level, scope, item, input.expectedRevision, { reset: true });
  }

  /** The prompt and model settings, their sources and the scope counters for a run (R20). */
  async resolveForRun(space: string, sessionId: string): Promise<RunSettingsSnapshot> {
    const scope = checkScope({ space, sessionId });
    if (scope.space === undefined || scope.sessionId === undefined) {
      throw invalid('resolveForRun needs a space and a session id.', { field: 'space' });
    }
    const layers = await this.readLayers(scope);
    const resolveItems = (items: Record<string, SettingItemDefinition>) => {
      const values: Record<string, unknown> = {};
      const sources: Record<string, SettingsLevel> = {};
      for (const [field, definition] of Object.entries(items)) {
        const item = this.registry.get(definition.key);
        if (item === undefined) {
          throw new RepaError('internal', `The settings registry lacks '${definition.key}'.`);
        }
        const view = buildView(item, layers);
        values[field] = view.value;
        sources[field] = view.source;
      }
      return { values, sources };
    };
    const prompt = resolveItems(promptSettingItems);
    const model = resolveItems(modelSettingItems);
    return {
      promptSettings: promptSettingsSchema.parse(prompt.values),
      sources: prompt.sources as RunSettingsSnapshot['sources'],
      modelSettings: modelSettingsSchema.parse(model.values),
      modelSources: model.sources as RunSettingsSnapshot['modelSources'],
      revisions: {
        application: layers.application.revision,
        space: layers.space?.revision ?? 0,
        session: layers.session?.revision ?? 0,
      },
    };
  }

  private applicationPath(): string {
    return join(this.appDirectory, APPLICATION_FILE);
  }

  private async readLayers(scope: CheckedScope): Promise<Layers> {
    const [application, space, trusted] = await Promise.all([
      readSettingsDocument(this.applicationPath(), 'application', this.registry, this.#fs),
      scope.space === undefined
        ? undefined
        : readSpaceDocument(scope.space, this.registry, this.#fs),
      this.trusted(scope.space),
    ]);
    return layersOf(application, space, scope.sessionId, trusted);
  }

  private async trusted(space: string | undefined): Promise<boolean> {
    return space !== undefined && ((await this.#isTrusted?.(space)) ?? false);
  }

  /** Refuses a space or session write of an item that needs trust in an untrusted space. */
  private async checkTrust(
    item: SettingItemDefinition,
    level: WritableSettingsLevel,
    scope: CheckedScope,
  ): Promise<void> {
    if (level === 'application' || !item.requiresTrust || (await this.trusted(scope.space))) return;
    throw new RepaError(
      'space_untrusted',
      `Setting '${item.key}' changes what runs or what the model is told, and this space is not trusted: its ${level}-level value would be ignored, so it was not stored.`,
      {
        fix: `Trust the space first (repa trust --space ${scope.space}), or set it for every space with --level application.`,
        details: { key: item.key, level, space: scope.space },
      },
    );
  }

  private checkWrite(input: ResetSettingInput): {
    item: SettingItemDefinition;
    level: WritableSettingsLevel;
    scope: CheckedScope;
  } {
    const level = writableSettingsLevelSchema.safeParse(input.level);
    if (!level.success) {
      throw invalid('"level" must be one of application, space, session.', { field: 'level' });
    }
    const scope = checkScope(input);
    if (level.data !== 'application' && scope.space === undefined) {
      throw invalid(`A ${level.data}-level setting needs "space".`, { field: 'space' });
    }
    if (level.data === 'session' && scope.sessionId === undefined) {
      throw invalid('A session-level setting needs "sessionId".', { field: 'sessionId' });
    }
    const item = typeof input.key === 'string' ? this.registry.get(input.key) : undefined;
    if (item === undefined) {
      const known = this.registry.items.map((entry) => entry.key).join(', ');
      throw invalid(`Unknown setting '${String(input.key)}'. Known settings: ${known}.`, {
        key: input.key,
      });
    }
    const expected = input.expectedRevision;
    if (expected !== undefined && !(Number.isSafeInteger(expected) && expected >= 0)) {
      throw invalid('"expectedRevision" must be a non-negative integer.', {
        field: 'expectedRevision',
      });
    }
    return { item, level: level.data, scope };
  }

  private async write(
    level: WritableSettingsLevel,
    scope: CheckedScope,
    item: SettingItemDefinition,
    expectedRevision: number | undefined,
    change: { value: unknown } | { reset: true },
  ): Promise<SettingItemView> {
    const kind: SettingsFileKind = level === 'application' ? 'application' : 'space';
    const target: ScopeTarget =
      level === 'session' ? { level, sessionId: scope.sessionId as string } : { level };
    const space = scope.space;
    // The other file of the scope is read first: a corrupt one refuses the call before any write.
    const other =
      kind === 'application'
        ? space === undefined
          ? undefined
          : await readSpaceDocument(space, this.registry, this.#fs)
        : await readSettingsDocument(
            this.applicationPath(),
            'application',
            this.registry,
            this.#fs,
          );
    const path =
      kind === 'application' ? this.applicationPath() : join(space as string, SPACE_FILE);
    const written = await updateSettingsDocument(
      path,
      kind,
      this.registry,
      () => (kind === 'application' ? this.prepareAppDirectory() : prepareSpace(space as string)),
      (document) => {
        const entry = document.scope(target).entries.get(item.key);
        const current = entry?.revision ?? 0;
        if (expectedRevision !== undefined && expectedRevision !== current) {
          throw new RepaError(
            'stale_version',
            `Setting '${item.key}' at the ${level} level is at revision ${current}, ` +
              `not the expected ${expectedRevision}.`,
            {
              fix: 'Read the settings again (settings.get), then retry with the current revision.',
              details: { key: item.key, level, expectedRevision, currentRevision: current },
            },
          );
        }
        if ('reset' in change && !entry?.isSet) return { changed: false, result: document };
        document.write(target, item.key, change);
        return { changed: true, result: document };
      },
      {
        verify: kind === 'space' ? () => checkRepaFolder(space as string) : undefined,
        fs: this.#fs,
      },
    );
    const application = kind === 'application' ? written : (other as SettingsDocument);
    const spaceDocument = kind === 'application' ? other : written;
    const trusted = await this.trusted(space);
    return buildView(item, layersOf(application, spaceDocument, scope.sessionId, trusted));
  }

  private async prepareAppDirectory(): Promise<void> {
    try {
      await mkdir(this.appDirectory, { recursive: true });
    } catch (error) {
      throw settingsIoError(error, this.applicationPath(), 'Creating the folder of');
    }
  }
}
