import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type RepaClient,
  RepaError,
  type RunEventNotification,
  type RunInfo,
  type RunSubmitResult,
} from '@repa/protocol';
import { createRepaClient } from '@repa/protocol/node';
import { afterAll, beforeAll, expect } from 'vitest';

// What the files of the public client against a real daemon child process share (spec R93).

const script = fileURLToPath(new URL('./scripted-daemon.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const node = process.execPath;

/** A scripted daemon child process and the socket it listens on. */
export interface Daemon {
  child: ChildProcess;
  socketPath: string;
}

/** Starts `scripted-daemon.mjs` on these directories and resolves once it listens. */
export function startDaemon(
  appDirectory: string,
  agentDir: string,
  mode?: 'answer-holds',
): Promise<Daemon> {
  const child = spawn(node, [script, appDirectory, agentDir, ...(mode ? [mode] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const ready = /^ready (.+)$/m.exec(out);
      if (ready?.[1]) resolve({ child, socketPath: ready[1] });
    });
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    child.once('exit', (code) => reject(new Error(`daemon exited ${code}: ${err}`)));
  });
}

/** Resolves once the child has exited. */
export function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Expects the promise to reject with a RepaError of this code. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
    expect.unreachable(`expected ${code}`);
  } catch (error) {
    expect(RepaError.isInstance(error) && error.code).toBe(code);
  }
}

/** Collects run events of a client and waits for conditions on them. */
function eventLog(client: RepaClient) {
  const events: RunEventNotification[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  client.on('run.event', (params) => {
    events.push(params);
    for (const waiter of [...waiters]) {
      if (waiter.test()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const of = (runId: string) => events.filter((event) => event.runId === runId);
  const until = (test: () => boolean) =>
    new Promise<void>((resolve) => (test() ? resolve() : waiters.push({ test, resolve })));
  return {
    of,
    until,
    ended: (runId: string) =>
      until(() =>
        of(runId).some(
          (event) =>
            event.event.type === 'status' && !['accepted', 'running'].includes(event.event.status),
        ),
      ),
  };
}

/** One file's daemon, its client and helpers; `daemon` changes when a test restarts it. */
export interface ApplicationRig {
  /** The temp folder that holds the others. */
  base: string;
  appDirectory: string;
  agentDir: string;
  space: string;
  daemon: Daemon;
  client: RepaClient;
  log: ReturnType<typeof eventLog>;
  newSession(title?: string): Promise<string>;
  submit(
    sessionId: string,
    text: string,
    requestId?: string,
    delivery?: 'new' | 'queue' | 'steer' | 'followUp',
  ): Promise<RunSubmitResult>;
  /** Polls the ledger until the run has ended (no timing is asserted). */
  ended(runId: string): Promise<RunInfo>;
  /**
   * Polls the session's history until it holds `count` messages of the learner: a run is said
   * `running` before its inputs are read and its message enters the history.
   */
  inHistory(sessionId: string, count?: number): Promise<void>;
  /** The space's `.repa/sessions` folder. */
  sessionsDir(): string;
  /** The session's file under the space's `.repa/sessions`. */
  sessionFileOf(sessionId: string): string;
}

/**
 * Registers hooks that start a scripted daemon on a fresh temp space (with one of the learner's
 * skills) before the file's tests and stop it after them.
 */
export function useApplicationDaemon(): ApplicationRig {
  const base = mkdtempSync(join(tmpdir(), 'repa-app-'));
  const appDirectory = join(base, 'app');
  const agentDir = join(base, 'agent');
  const space = join(base, 'space');
  mkdirSync(space);
  // One of the learner's own skills (Pi's user scope), for a `/skill:` steer.
  mkdirSync(join(agentDir, 'skills', 'tidy'), { recursive: true });
  writeFileSync(
    join(agentDir, 'skills', 'tidy', 'SKILL.md'),
    '---\nname: tidy\ndescription: Keep answers tidy.\n---\nAnswer in one short sentence.\n',
  );
  const sessionsDir = () => join(space, '.repa', 'sessions');
  const rig = {
    base,
    appDirectory,
    agentDir,
    space,
    newSession: async (title?: string) =>
      (await rig.client.request('session.create', { space, ...(title ? { title } : {}) })).session
        .sessionId,
    submit: (
      sessionId: string,
      text: string,
      requestId = `q-${Math.random()}`,
      delivery?: 'new' | 'queue' | 'steer' | 'followUp',
    ) =>
      rig.client.request('run.submit', {
        space,
        sessionId,
        requestId,
        input: { type: 'text', text },
        ...(delivery ? { delivery } : {}),
      }),
    ended: async (runId: string): Promise<RunInfo> => {
      for (;;) {
        const { run } = await rig.client.request('run.get', { runId });
        if (!['accepted', 'running'].includes(run.status)) return run;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    inHistory: async (sessionId: string, count = 1): Promise<void> => {
      for (;;) {
        const { items } = await rig.client.request('session.history', { space, sessionId });
        if (items.filter((item) => item.kind === 'user').length >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    sessionsDir,
    sessionFileOf: (sessionId: string) => {
      const name = readdirSync(sessionsDir()).find((file) => file.endsWith(`_${sessionId}.jsonl`));
      if (!name) throw new Error(`no session file for ${sessionId}`);
      return join(sessionsDir(), name);
    },
  } as ApplicationRig;

  beforeAll(async () => {
    expect(existsSync(dist), 'build @repa/application first').toBe(true);
    rig.daemon = await startDaemon(appDirectory, agentDir);
    rig.client = createRepaClient({ socketPath: rig.daemon.socketPath });
    rig.log = eventLog(rig.client);
  });

  afterAll(async () => {
    await rig.client?.close();
    rig.daemon?.child.kill('SIGTERM');
    if (rig.daemon) await stopped(rig.daemon.child);
  });

  return rig;
}
