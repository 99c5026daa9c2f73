import { basename, dirname, join } from 'node:path';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { excerptOf, TEMP_MARK, versionOf } from '../files/index.js';
import type { Identities } from '../identity/index.js';
import {
  type ContentLocation,
  fileTooLarge,
  MAX_READ_BYTES,
  newIdentity,
  refuseCaseClash,
  refuseCaseTwins,
  type SpaceResolver,
} from '../space/index.js';
import type { IntentChange, IntentRecord } from './intent-record.js';

/** One object a save changes. */
export interface SaveChange {
  /** Path relative to the space root, or a `repa:` identity. */
  target: string;
  /** The new bytes; `null` deletes the object. */
  content: Uint8Array | null;
  /**
   * The version the caller observed (sha256 hex), or `null` when the object must not exist yet.
   * A mismatch fails the whole save with `stale_version`; an unexpected existing object with
   * `read_required`.
   */
  expectedVersion: string | null;
  /** For a move: the path (or identity) whose identity passes to `target`. */
  identityFrom?: string;
}

/**
 * One change of a save, checked and resolved to absolute paths.
 */
export interface PlannedChange {
  target: string;
  absolutePath: string;
  identity: string;
  identityFrom?: string;
  previousVersion: string | null;
  version: string | null;
  content: Buffer | null;
  temp: string | null;
  mode: number | null;
  createdDirs: string[];
  /**
   * The stat key of the planned read when it was old enough to trust (see
   * `ContentStore.settledKey`): the re-check compares it instead of reading again. `null` otherwise.
   */
  settledKey: string | null;
}

/** The operation ids a save may have (they name its intent record and temp files). */
export const OPERATION_ID = /^[A-Za-z0-9_-]{1,100}$/u;

/** The temp file a save writes for change `position` of `operationId`, beside its target. */
export const tempPathOf = (absolutePath: string, operationId: string, position: number) =>
  join(
    dirname(absolutePath),
    `.${basename(absolutePath).slice(0, 80)}${TEMP_MARK}${operationId}-${position}`,
  );

/**
 * Checks and resolves `changes` into a plan: addresses, case clashes, expected versions, identities,
 * temp files and the folders to create. Runs under the lock; nothing is written.
 */
export async function planSave(
  space: SpaceResolver,
  identities: Identities,
  caseInsensitive: boolean,
  changes: readonly SaveChange[],
  operationId: string,
  settled: (statKey: string, readAt: number) => string | undefined,
  recall?: (target: string) => { statKey: string; version: string } | undefined,
): Promise<PlannedChange[]> {
  // Spec R74: a save writes no more than the store reads back, which bounds its intent record.
  const total = changes.reduce((sum, change) => sum + (change.content?.length ?? 0), 0);
  if (total > MAX_READ_BYTES) {
    throw fileTooLarge(
      changes.length === 1 ? JSON.stringify(changes[0]?.target) : 'The save',
      total,
    );
  }
  const locations: ContentLocation[] = [];
  for (const change of changes) {
    const location = await space.refuseUnsaveable(
      change.target,
      await space.resolve(change.target, identities),
    );
    if (locations.some((other) => other.target === location.target)) {
      throw new RepaError(
        'invalid_request',
        `The save changes ${JSON.stringify(location.target)} twice.`,
        {
          fix: 'Combine the changes to one object into one.',
        },
      );
    }
    locations.push(location);
  }
  refuseCaseTwins(locations.map((location) => location.target));
  if (caseInsensitive) {
    for (const { target } of locations) await refuseCaseClash(space.fs, space.root, target);
  }
  // Identities: a moved object keeps its own; an object without one gets a new one here, so the
  // receipts of both ends of a move name the same identity.
  const targetIdentities = new Map(
    locations.map((location) => [location.target, location.identity ?? newIdentity()]),
  );
  const plan: PlannedChange[] = [];
  for (const [position, change] of changes.entries()) {
    const { target, absolutePath } = locations[position] as ContentLocation;
    // A settled read of the expected version whose stat key is unchanged: the same bytes, unread.
    const read = recall?.(target);
    const current = await space.currentVersion(
      absolutePath,
      target,
      read?.version === change.expectedVersion ? read : undefined,
    );
    checkExpectation(target, change.expectedVersion, current);
    let identity = targetIdentities.get(target) as string;
    if (change.content !== null && change.identityFrom !== undefined) {
      const from = await space.resolve(change.identityFrom, identities);
      identity = from.identity ?? targetIdentities.get(from.target) ?? identity;
    }
    const content = change.content === null ? null : Buffer.from(change.content);
    const temp = content === null ? null : tempPathOf(absolutePath, operationId, position);
    plan.push({
      target,
      absolutePath,
      identity,
      ...(change.identityFrom === undefined ? {} : { identityFrom: change.identityFrom }),
      previousVersion: current?.version ?? null,
      version: content === null ? null : versionOf(content),
      content,
      temp,
      mode: current === null ? null : current.mode & 0o777,
      // An existing target's folders exist.
      createdDirs:
        content === null || current !== null ? [] : await space.missingDirs(dirname(absolutePath)),
      settledKey:
        current === null
          ? null
          : current.statKey === read?.statKey
            ? read.statKey
            : (settled(current.statKey, current.readAt) ?? null),
    });
  }
  return plan;
}

/** Throws `read_required` or `stale_version` when `current` is not what the caller expected. */
export function checkExpectation(
  target: string,
  expected: string | null,
  current: { version: string; bytes: Buffer } | null,
): void {
  const shown = JSON.stringify(target);
  if (expected === null && current !== null) {
    throw new RepaError('read_required', `${shown} already exists and this host has not read it.`, {
      details: { target, currentVersion: current.version, excerpt: excerptOf(current.bytes) },
    });
  }
  if (expected !== null && current === null) {
    throw new RepaError('stale_version', `${shown} was deleted since it was read.`, {
      fix: 'Check whether the file should still exist; create it again only if it should.',
      details: { target, expectedVersion: expected, currentVersion: null },
    });
  }
  if (expected !== null && current !== null && current.version !== expected) {
    throw new RepaError('stale_version', `${shown} changed since it was read.`, {
      details: {
        target,
        expectedVersion: expected,
        currentVersion: current.version,
        excerpt: excerptOf(current.bytes),
      },
    });
  }
}

/**
 * The pending intent record of a plan (paths relative to the space root, bytes in base64; with
 * `withContent` false every `content` is left `null`, for a record that carries the bytes itself).
 */
export function toRecord(
  space: SpaceResolver,
  plan: readonly PlannedChange[],
  operationId: string,
  withContent = true,
): IntentRecord {
  return {
    format: 'repa.content-intent/1',
    operationId,
    createdAt: new Date().toISOString(),
    status: 'pending',
    changes: plan.map((change) => ({
      target: change.target,
      identity: change.identity,
      ...(change.identityFrom === undefined ? {} : { identityFrom: change.identityFrom }),
      previousVersion: change.previousVersion,
      version: change.version,
      content: change.content === null || !withContent ? null : change.content.toString('base64'),
      temp: change.temp === null ? null : space.rel(change.temp),
      mode: change.mode,
      createdDirs: change.createdDirs.map((dir) => space.rel(dir)),
    })),
  };
}

/** The planned change an intent record's change stands for (the reverse of {@link toRecord}). */
export function fromRecord(space: SpaceResolver, change: IntentChange): PlannedChange {
  return {
    target: change.target,
    absolutePath: join(space.root, change.target),
    identity: change.identity,
    previousVersion: change.previousVersion,
    version: change.version,
    content: change.content === null ? null : Buffer.from(change.content, 'base64'),
    temp: change.temp === null ? null : join(space.root, change.temp),
    mode: change.mode,
    createdDirs: change.createdDirs.map((dir) => join(space.root, dir)),
    settledKey: null,
  };
}

/** The receipts of planned changes, in order. */
export function receiptsOf(operationId: string, changes: readonly PlannedChange[]): SaveReceipt[] {
  return changes.map((change) => ({
    operationId,
    target: change.target,
    identity: change.identity,
    previousVersion: change.previousVersion,
    version: change.version,
    bytes: change.content?.length ?? 0,
  }));
}
