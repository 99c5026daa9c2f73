import { RepaError } from '@repa/protocol';
import { idSchema } from '@repa/protocol/schemas';
import { z } from 'zod';
import type { SettingsRegistry } from './settings-registry.js';

/** The settings file format this version reads and writes. */
export const SETTINGS_FORMAT_VERSION = 1;

/** Which file a document is: the application file or a space's `.repa/settings.json`. */
export type SettingsFileKind = 'application' | 'space';

/** One settings scope inside a file: the application, a space, or one session of a space. */
export type ScopeTarget =
  | { readonly level: 'application' }
  | { readonly level: 'space' }
  | { readonly level: 'session'; readonly sessionId: string };

/** One stored item of a scope: a live override (`isSet`) or a reset tombstone. */
export interface StoredEntry {
  /** The scope counter value this entry was written with. */
  readonly revision: number;
  /** False for a tombstone left by `reset`. */
  readonly isSet: boolean;
  /** The override value (undefined for a tombstone). */
  readonly value: unknown;
}

/** What a scope holds: its counter and its known items (unknown keys are left out). */
export interface ScopeState {
  /** The scope counter; grows on every set or reset in the scope. */
  readonly revision: number;
  /** Registry items stored in the scope, by key. */
  readonly entries: ReadonlyMap<string, StoredEntry>;
}

type JsonObject = { [key: string]: unknown };

/** Keys that could reach an object's prototype when a file is merged into objects naively. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** True for a key no settings file may contain (see {@link findForbiddenKey}). */
export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

const revisionSchema = z.number().int().nonnegative();

const entrySchema = z
  .looseObject({
    revision: revisionSchema,
    reset: z.literal(true).optional(),
  })
  .superRefine((entry, context) => {
    const hasValue = Object.hasOwn(entry, 'value');
    if (hasValue === (entry.reset === true)) {
      context.addIssue({
        code: 'custom',
        message: 'an item needs exactly one of "value" or "reset": true',
      });
    }
  });

const scopeShape = {
  revision: revisionSchema.optional(),
  items: z.record(z.string(), entrySchema).optional(),
};
const scopeSchema = z.looseObject(scopeShape);

const fileSchemas = {
  application: z.looseObject({ version: z.literal(SETTINGS_FORMAT_VERSION), ...scopeShape }),
  space: z.looseObject({
    version: z.literal(SETTINGS_FORMAT_VERSION),
    space: scopeSchema.optional(),
    sessions: z.record(idSchema, scopeSchema).optional(),
  }),
} as const;

function corrupt(path: string, problem: string, fix?: string): RepaError {
  return new RepaError('settings_corrupt', `Settings file ${path} is corrupt: ${problem}.`, {
    details: { path, problem },
    ...(fix === undefined ? {} : { fix }),
  });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON path of the first forbidden key anywhere in `value`, or undefined. */
export function findForbiddenKey(value: unknown, path = '$'): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, element] of value.entries()) {
      const found = findForbiddenKey(element, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const where = `${path}[${JSON.stringify(key)}]`;
      if (FORBIDDEN_KEYS.has(key)) return where;
      const found = findForbiddenKey(value[key], where);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((part) => `[${JSON.stringify(String(part))}]`).join('');
}

function scopeLabel(target: ScopeTarget): string {
  if (target.level === 'application') return '$';
  if (target.level === 'space') return '$["space"]';
  return `$["sessions"][${JSON.stringify(target.sessionId)}]`;
}

/**
 * One settings file held in memory as its parsed JSON tree, so that fields and item keys this
 * version does not know survive a rewrite unchanged.
 * Contract: a document only exists for text that passed {@link SettingsDocument.parse}, and
 * {@link SettingsDocument.serialize} only produces text that passes it again.
 */
export class SettingsDocument {
  private constructor(
    /** The file the document was read from or will be written to. */
    readonly path: string,
    /** Which file it is. */
    readonly kind: SettingsFileKind,
    private readonly registry: SettingsRegistry,
    private readonly root: JsonObject,
  ) {}

  /** A document for a file that does not exist yet. */
  static empty(path: string, kind: SettingsFileKind, registry: SettingsRegistry): SettingsDocument {
    return new SettingsDocument(path, kind, registry, { version: SETTINGS_FORMAT_VERSION });
  }

  /** Parses and validates a file's bytes; throws `settings_corrupt` naming the problem. */
  static parse(
    bytes: Uint8Array,
    path: string,
    kind: SettingsFileKind,
    registry: SettingsRegistry,
  ): SettingsDocument {
    if (bytes.length === 0) throw corrupt(path, 'the file is empty');
    const nul = bytes.indexOf(0);
    if (nul !== -1) throw corrupt(path, `the file contains a NUL byte at offset ${nul}`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw corrupt(path, 'the file is not valid UTF-8');
    }
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch (error) {
      throw corrupt(path, `invalid JSON (${(error as Error).message})`);
    }
    if (!isObject(root)) throw corrupt(path, 'the top level is not a JSON object');
    const forbidden = findForbiddenKey(root);
    if (forbidden !== undefined) {
      throw corrupt(path, `forbidden key at ${forbidden} (__proto__, constructor, prototype)`);
    }
    const version = root.version;
    if (typeof version === 'number' && Number.isInteger(version) && version > 1) {
      throw corrupt(
        path,
        `format version ${version} was written by a newer Repa; this one reads version ` +
          `${SETTINGS_FORMAT_VERSION}`,
        'Upgrade Repa to read this file, or remove it; nothing was overwritten.',
      );
    }
    const checked = fileSchemas[kind].safeParse(root);
    if (!checked.success) {
      const problems = checked.error.issues.map(
        (issue) => `$${pathText(issue.path)}: ${issue.message}`,
      );
      throw corrupt(path, problems.join('; '));
    }
    const document = new SettingsDocument(path, kind, registry, root);
    document.checkKnownValues();
    return document;
  }

  /** Every scope stored in the file (the application scope, or the space and its sessions). */
  private *targets(): Generator<ScopeTarget> {
    if (this.kind === 'application') {
      yield { level: 'application' };
      return;
    }
    yield { level: 'space' };
    const sessions = this.root.sessions;
    if (isObject(sessions)) {
      for (const sessionId of Object.keys(sessions)) yield { level: 'session', sessionId };
    }
  }

  private checkKnownValues(): void {
    for (const target of this.targets()) {
      const items = this.rawScope(target)?.items;
      if (!isObject(items)) continue;
      for (const [key, entry] of Object.entries(items)) {
        const item = this.registry.get(key);
        if (item === undefined || !isObject(entry) || !Object.hasOwn(entry, 'value')) continue;
        const parsed = item.schema.safeParse(entry.value);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const where = `${scopeLabel(target)}["items"][${JSON.stringify(key)}]["value"]`;
          throw corrupt(
            this.path,
            `${where}${pathText(issue?.path ?? [])}: ${issue?.message ?? 'invalid value'}`,
          );
        }
      }
    }
  }

  private rawScope(target: ScopeTarget): JsonObject | undefined {
    if (target.level === 'application') return this.root;
    if (target.level === 'space') {
      const space = this.root.space;
      return isObject(space) ? space : undefined;
    }
    const sessions = this.root.sessions;
    if (!isObject(sessions) || !Object.hasOwn(sessions, target.sessionId)) return undefined;
    const session = sessions[target.sessionId];
    return isObject(session) ? session : undefined;
  }

  private ensureRawScope(target: ScopeTarget): JsonObject {
    const existing = this.rawScope(target);
    if (existing !== undefined) return existing;
    const created: JsonObject = { revision: 0, items: {} };
    if (target.level === 'space') {
      this.root.space = created;
    } else if (target.level === 'session') {
      if (!isObject(this.root.sessions)) this.root.sessions = {};
      (this.root.sessions as JsonObject)[target.sessionId] = created;
    }
    return created;
  }

  /** The counter and the known items of one scope; an absent scope is empty with counter 0. */
  scope(target: ScopeTarget): ScopeState {
    const raw = this.rawScope(target);
    const entries = new Map<string, StoredEntry>();
    let revision = typeof raw?.revision === 'number' ? raw.revision : 0;
    const items = raw?.items;
    if (isObject(items)) {
      for (const [key, entry] of Object.entries(items)) {
        if (!isObject(entry) || typeof entry.revision !== 'number') continue;
        // Contract: a counter never falls behind its items, so a hand-edited file whose counter is
        // lower than an item's revision still never hands out an old revision again.
        revision = Math.max(revision, entry.revision);
        const item = this.registry.get(key);
        if (item === undefined) continue;
        const isSet = Object.hasOwn(entry, 'value');
        entries.set(key, {
          revision: entry.revision,
          isSet,
          value: isSet ? item.schema.parse(entry.value) : undefined,
        });
      }
    }
    return { revision, entries };
  }

  /**
   * Stores `value` (or a reset tombstone when `value` is omitted) for `key` in a scope, stamped
   * with the scope's next counter value, which is returned.
   */
  write(target: ScopeTarget, key: string, change: { value: unknown } | { reset: true }): number {
    const next = this.scope(target).revision + 1;
    const raw = this.ensureRawScope(target);
    raw.revision = next;
    if (!isObject(raw.items)) raw.items = {};
    (raw.items as JsonObject)[key] =
      'value' in change ? { value: change.value, revision: next } : { reset: true, revision: next };
    return next;
  }

  /** The file text: pretty-printed JSON with a final newline. */
  serialize(): string {
    return `${JSON.stringify(this.root, null, 2)}\n`;
  }
}
