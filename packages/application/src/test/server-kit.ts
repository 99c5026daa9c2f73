import { spawn } from 'node:child_process';
import type { RepaClient, RunEventNotification } from '@repa/protocol';
import { createRepaClient, type RepaClientTarget } from '@repa/protocol/node';
import { afterEach, expect } from 'vitest';
import type { RepaHandlers } from '../server/repa-handlers.js';
import {
  type RepaServer,
  type RepaServerOptions,
  startRepaServer,
} from '../server/start-repa-server.js';
import { deferred, runInfo, tempAppDirectory } from './builders.js';
import { RawConnection } from './raw-connection.js';

// What the files of `startRepaServer`'s tests share: servers, clients and raw connections closed
// after each test, handlers whose `run.get` waits on a gate, and the checks they repeat.

/** What the current test opened, closed after it (last first) by `closeAfterEach`. */
export const cleanups: (() => Promise<unknown> | unknown)[] = [];

/** Registers the hook that runs `cleanups` after each test of the calling file. */
export function closeAfterEach(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
}

/** Gates that hold `run.get` for a run id until the test opens them. */
export class Gates {
  readonly #gates = new Map<string, ReturnType<typeof deferred<void>>>();
  wait(runId: string): Promise<void> {
    return this.#gate(runId).promise;
  }
  open(runId: string): void {
    this.#gate(runId).resolve();
  }
  #gate(runId: string): ReturnType<typeof deferred<void>> {
    let gate = this.#gates.get(runId);
    if (!gate) {
      gate = deferred();
      this.#gates.set(runId, gate);
    }
    return gate;
  }
}

/** Handlers written for these tests: `run.get` waits for its gate when the id starts with `slow`. */
export function testHandlers(gates: Gates, extra: RepaHandlers = {}): RepaHandlers {
  return {
    'run.get': async ({ runId }) => {
      if (runId.startsWith('slow')) await gates.wait(runId);
      return { run: runInfo({ runId }) };
    },
    'run.list': async () => ({ runs: [] }),
    'run.subscribe': async ({ runId }) => ({ run: runInfo({ runId }) }),
    ...extra,
  };
}

/** A server on a temp app directory with `testHandlers`, closed after the test. */
export async function start(options: Partial<RepaServerOptions> = {}): Promise<RepaServer> {
  const server = await startRepaServer({
    appDirectory: tempAppDirectory(),
    handlers: testHandlers(new Gates()),
    ...options,
  });
  cleanups.push(() => server.close({ graceMs: 0 }));
  return server;
}

/** A client of the server (or target), closed after the test. */
export function clientOf(target: RepaServer | RepaClientTarget): RepaClient {
  const client = createRepaClient(
    'socketPath' in target ? { socketPath: target.socketPath } : target,
    {
      reconnectDelayMs: 10,
    },
  );
  cleanups.push(() => client.close());
  return client;
}

/** A raw socket connection to the server, destroyed after the test. */
export async function raw(server: RepaServer): Promise<RawConnection> {
  const connection = await RawConnection.open(server.socketPath);
  cleanups.push(() => connection.destroy());
  return connection;
}

/**
 * Runs `badInput` while another client has a request in flight, then shows that request and a new
 * one are still answered: the server kept serving the other client.
 */
export async function whileServingAnother(
  server: RepaServer,
  gates: Gates,
  badInput: () => Promise<void>,
) {
  const witness = clientOf(server);
  const runId = `slow-${Math.random()}`;
  const inFlight = witness.request('run.get', { runId });
  inFlight.catch(() => {}); // Awaited below; a failed assertion must not leave it unhandled.
  await badInput();
  gates.open(runId);
  expect((await inFlight).run.runId).toBe(runId);
  expect(await witness.request('run.list', {})).toEqual({ runs: [] });
}

/** The id, code and message of a raw error response. */
export function errorOf(message: unknown): { id: unknown; code: string; message: string } {
  const { id, error } = message as {
    id: unknown;
    error: { data: { code: string; message: string } };
  };
  return { id, code: error.data.code, message: error.data.message };
}

/** A `run.event` notification of a text delta. */
export function notification(runId: string, seq: number): RunEventNotification {
  return { runId, sessionId: 's1', seq, event: { type: 'text-delta', delta: `part ${seq}` } };
}

/** A handler that must not be called. */
export function never(): never {
  throw new Error('not called');
}

/** Starts a plain listener on `socketPath` in another process and SIGKILLs it: a stale socket. */
export async function killedListener(socketPath: string): Promise<void> {
  const script = `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('ready'))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The pid of a process that has exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 2 ** 22 + 1;
}
