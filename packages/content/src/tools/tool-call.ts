import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { ToolDefinition } from '@earendil-works/pi-coding-agent';
import { RepaError, type SaveReceipt, toolErrorText } from '@repa/protocol';
import { type ContentObserver, checkObserved } from '../observer/index.js';
import type { SearchLimits } from '../search/index.js';
import { type ContentSnapshot, holdSpace, type SpaceHold } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { refuseSkillFile } from './skill-files.js';

/** The parameters schemas built so far, by the Pi schema they were built from. */
const parametersByBase = new WeakMap<object, object>();

/**
 * The parameters schema built from Pi's own tool schema `base`, built once per process: Pi
 * compiles a validator per schema object, so a schema rebuilt for every session would be compiled
 * again for every session.
 */
export function sharedParameters<T extends object>(base: object, build: () => T): T {
  let parameters = parametersByBase.get(base) as T | undefined;
  if (parameters === undefined) {
    parameters = build();
    parametersByBase.set(base, parameters);
  }
  return parameters;
}

/** Options of {@link createContentTools}. */
export interface ContentToolsOptions {
  /** The space's store; every byte the tools read or write goes through it. */
  store: ContentStore;
  /** This host's observation map: reads record into it, saves check against it. */
  observer: ContentObserver;
  /** Generates an operation id per saving tool call (spec R65). Default: a random UUID. */
  newOperationId?: () => string;
  /** Passed to Pi's read tool: resize images before sending them. Default true. */
  autoResizeImages?: boolean;
  /**
   * The files of the skills the prompt's catalog offers (absolute paths, read at each call): `read`
   * accepts them (and files inside the folder of a `SKILL.md`) read-only and untracked.
   */
  skillFiles?: () => readonly string[];
  /** Per-call bounds of `ls`, `find` and `grep`; defaults in the package README. */
  searchLimits?: Partial<SearchLimits>;
}

/** What one tool call has done so far; Pi's tools reach it through their `*Operations`. */
export interface ToolCallState {
  /** The path or identity the model gave. */
  address: string;
  /** The operation id of a saving call. */
  operationId: string;
  /** The one snapshot this call read. */
  snapshot?: ContentSnapshot;
  /** Receipts of a save that reached disk. */
  receipts?: SaveReceipt[];
  /** The bytes that save wrote. */
  written?: Buffer;
  /** The first RepaError an operation threw (Pi may re-wrap it in a plain Error). */
  error?: RepaError;
  /** True when the snapshot is an offered skill's file (read-only, untracked). */
  skill?: boolean;
}

const calls = new AsyncLocalStorage<ToolCallState>();

/** Runs `task` as the tool call described by `state`. */
export function runToolCall<T>(state: ToolCallState, task: () => Promise<T>): Promise<T> {
  return calls.run(state, task);
}

/**
 * `tool` with each call holding the space at `root` as `mode` says for its whole run (spec R74):
 * the content tools shared, a command exclusively, so no tool checks a path a running command can
 * swap. A call cancelled while it waits (its signal, or `stop`) fails with `cancelled`.
 */
export function holdingSpace(
  root: string,
  mode: SpaceHold,
  tool: ToolDefinition,
  stop?: AbortSignal,
): ToolDefinition {
  return {
    ...tool,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const waitSignals = [signal, stop].filter((each) => each !== undefined);
      let started = false;
      try {
        return await holdSpace(
          root,
          mode,
          () => {
            started = true;
            return tool.execute(toolCallId, params, signal, onUpdate, ctx);
          },
          waitSignals.length > 0 ? AbortSignal.any(waitSignals) : undefined,
        );
      } catch (error) {
        throw started ? error : toolError(error);
      }
    },
  };
}

/** Bytes from this size on are handed back to the system as soon as a call is done with them. */
const RELEASE_FROM = 1024 * 1024;

/**
 * Frees `bytes` now instead of at some later garbage collection, when they alone own their memory
 * (never a slice of Node's shared pool): a huge file's snapshot must not keep the daemon's
 * resident size up after the call.
 */
function freeNow(bytes: Buffer | undefined): void {
  if (bytes === undefined || bytes.length < RELEASE_FROM) return;
  const { buffer } = bytes;
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength !== bytes.length) return;
  try {
    (buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  } catch {
    // Not detachable (owned by something else): the garbage collector frees it.
  }
}

/**
 * Drops the snapshot of a finished read call (`signal`: its abort signal). The call read the snapshot
 * itself and nothing keeps its bytes (the observer copies the text it keeps), so a huge one is
 * freed at once; and a promise created during the call keeps the call's async context, and with
 * it `state`, alive after the call.
 */
export function releaseReadCall(state: ToolCallState, signal: AbortSignal | undefined): void {
  // A cancelled call may still have Pi's image processing running on the bytes.
  if (signal?.aborted !== true) freeNow(state.snapshot?.bytes);
  delete state.snapshot;
}

/** Runs an operation of the current tool call, remembering the RepaError it throws. */
export async function inToolCall<T>(operation: (state: ToolCallState) => Promise<T>): Promise<T> {
  const state = calls.getStore();
  if (state === undefined) {
    throw new RepaError('internal', 'A content operation ran outside a Repa tool call.');
  }
  try {
    return await operation(state);
  } catch (error) {
    if (RepaError.isInstance(error)) state.error ??= error;
    throw error;
  }
}

/** A new operation id from the options' generator. */
export function operationIdFrom(options: ContentToolsOptions): string {
  return options.newOperationId?.() ?? randomUUID();
}

/** The error of a tool call cancelled before it started. */
export function cancelledCall(): RepaError {
  return new RepaError(
    'cancelled',
    'The tool call was cancelled before it started; nothing was saved.',
  );
}

function classify(error: unknown): RepaError {
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'Operation aborted') {
    return new RepaError('cancelled', 'The tool call was cancelled before anything was saved.');
  }
  if (message.startsWith('Could not find')) {
    return new RepaError('patch_conflict', message, {
      fix: 'Read the file again and copy oldText exactly from its current text.',
    });
  }
  if (/occurrences/u.test(message)) {
    return new RepaError('invalid_request', message, {
      fix: 'Add surrounding lines to oldText until it matches exactly one place.',
    });
  }
  return new RepaError('invalid_request', message, {
    fix: 'Correct the tool arguments as the message says, then call the tool again.',
  });
}

/**
 * The error a tool throws: Pi turns it into an `isError` result whose text is the message, so the
 * message carries the code, what went wrong, recovery facts and the fix. `details` stay intact.
 */
export function toolError(error: unknown, state?: ToolCallState): RepaError {
  const cause = state?.error ?? (RepaError.isInstance(error) ? error : classify(error));
  const extra: string[] = [];
  const details = cause.details ?? {};
  if (typeof details.currentVersion === 'string')
    extra.push(`Current version: ${details.currentVersion}`);
  if (typeof details.excerpt === 'string')
    extra.push(`Current start of the file:\n${details.excerpt}`);
  return cause.withMessage(toolErrorText(cause, extra));
}

/**
 * The snapshot a saving tool works on: it must be a space object this host observed at exactly
 * its current version (`read_required` / `stale_version` otherwise), so nothing is overwritten blind.
 */
export async function observedSnapshot(
  options: ContentToolsOptions,
  address: string,
): Promise<ContentSnapshot> {
  await refuseSkillFile(options, address);
  const snapshot = (await knownSnapshot(options, address)) ?? (await options.store.read(address));
  if (snapshot.outside) {
    throw new RepaError(
      'path_outside_space',
      `${address} is an outside material; outside materials are read-only.`,
      {
        fix: 'Save a copy inside the space instead.',
      },
    );
  }
  checkObserved(options.observer, snapshot);
  return snapshot;
}

/**
 * The snapshot this host already holds for `address`, without reading the file: when the observer
 * kept the whole text it saw and the file still has the settled stat key it was seen with (the rule
 * change checks use: then it has those bytes). Otherwise `undefined`.
 */
async function knownSnapshot(
  { store, observer }: ContentToolsOptions,
  address: string,
): Promise<ContentSnapshot | undefined> {
  const location = await store.locate(address);
  const seen = location.outside ? undefined : observer.get(location.target);
  if (seen?.text === undefined || seen.statKey === undefined || seen.partial) return undefined;
  const { identity } = location;
  if (identity === undefined || seen.identity !== identity) return undefined;
  const readAt = Date.now();
  const statKey = await store.space.statKeyOf(location.target);
  if (statKey !== seen.statKey) return undefined;
  const bytes = Buffer.from(seen.text, 'utf8');
  return { ...location, identity, bytes, statKey, version: seen.version, readAt };
}
