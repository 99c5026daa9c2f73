import type { ModelChoice } from '@repa/host';
import { OFFLINE_MODEL_ID } from '@repa/protocol';
import { resolveAppDirectory } from '@repa/protocol/node';
import { RepaApplication } from './repa-application.js';
import type { RepaHandlers } from './server/repa-handlers.js';
import { type RepaServer, startRepaServer } from './server/start-repa-server.js';

/** Options of {@link runDaemon}. */
export interface RunDaemonOptions {
  /** Repa's application directory; default per spec R15 (`$XDG_CONFIG_HOME/repa`, `~/.config/repa`). */
  appDirectory?: string;
  /** Pi's configuration directory (models, auth); default Pi's own (`~/.pi/agent`). */
  agentDir?: string;
  /**
   * `provider/id` or `repa-offline`: the model of a run no settings level chooses one for.
   * Default: Pi's own default among the models with credentials when the run is accepted, else
   * `repa-offline` (spec R71).
   */
  model?: string;
  /** @internal A ready model whose runtime stands in for Pi's configuration (tests). */
  modelChoice?: ModelChoice;
  /** Also listen on 127.0.0.1 with this port and token. */
  tcp?: { port: number; token: string };
  /** The daemon's version, reported by `initialize`. */
  version?: string;
  /**
   * Called once when the daemon has had no connection, no request and no accepted or running run
   * for `daemon.idleMinutes` (application level; 0 never). The caller closes it (and exits).
   */
  onIdle?: () => void;
  /** The built web app (`@repa/web`'s `dist`), served when a client asks for it (`repa web`). */
  webStaticDirectory?: string;
}

/** A running daemon. */
export interface RunningDaemon {
  /** The unix socket path. */
  socketPath: string;
  /** The application directory. */
  appDirectory: string;
  /** The model it was started with (`--model`), when any. */
  model: string | undefined;
  /** Stops: no new requests, active runs get `graceMs` to finish, then are cancelled. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Starts the Repa daemon for an application directory: claims the socket first (one daemon per
 * directory), then opens the application (crash recovery) and serves protocol v1.
 */
export async function runDaemon(options: RunDaemonOptions = {}): Promise<RunningDaemon> {
  const appDirectory = resolveAppDirectory({ appDirectory: options.appDirectory });
  // Requests that arrive while the application opens wait for it (its handlers, its PDF reads).
  let ready!: (app: RepaApplication) => void;
  let failed!: (error: unknown) => void;
  const opened = new Promise<RepaApplication>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const handlers: Promise<RepaHandlers> = opened.then((app) => app.handlers());
  // Requests mark activity for the idle watch (`onIdle`) as they start, and again once they are
  // done: the request may have changed daemon.idleMinutes, and a check made while it ran read
  // the old value.
  let lastActivity = Date.now();
  let requested = () => {};
  const activity = () => {
    lastActivity = Date.now();
    requested();
  };
  // `initialize` reports the model the daemon was started with, when any.
  const daemonModel = options.modelChoice?.label ?? options.model;
  const serverInfo: { name: string; version: string; model?: string } = {
    name: 'repa-daemon',
    version: options.version ?? '0.0.0',
    ...(daemonModel ? { model: daemonModel } : {}),
  };
  const server: RepaServer = await startRepaServer({
    appDirectory,
    handlers,
    onRequest: () => {
      activity();
      return activity;
    },
    serverInfo,
    tcp: options.tcp,
    web: options.webStaticDirectory
      ? {
          staticDirectory: options.webStaticDirectory,
          pdfBytes: async (space, path) => (await opened).pdfBytes(space, path),
        }
      : undefined,
  });
  let app: RepaApplication;
  try {
    app = await RepaApplication.open({
      appDirectory,
      ...(options.agentDir ? { agentDir: options.agentDir } : {}),
      ...(options.modelChoice ? { model: options.modelChoice } : {}),
      ...(options.model ? { daemonModel: options.model } : {}),
    });
    // A model named at start is checked now (`not_found`); otherwise Pi loads at the first use,
    // so the daemon accepts connections without compiling Pi's modules first.
    if (options.model && options.model !== OFFLINE_MODEL_ID) {
      const opened = app;
      await opened.openModels().catch(async (error: unknown) => {
        await opened.close({ graceMs: 0 });
        throw error;
      });
    }
    ready(app);
  } catch (error) {
    failed(error);
    await server.close({ graceMs: 0 });
    throw error;
  }
  let closed: Promise<void> | undefined;
  if (options.onIdle) requested = watchIdle(app, server, () => lastActivity, options.onIdle);
  return {
    socketPath: server.socketPath,
    appDirectory,
    model: daemonModel,
    close(closeOptions = {}) {
      closed ??= (async () => {
        // Requests in flight are answered first; then active runs get their grace period.
        await server.close({ graceMs: 1_000 });
        await app.close(closeOptions);
      })();
      return closed;
    },
  };
}

const MAX_IDLE_CHECK_MS = 60_000;
const BUSY_CHECK_MS = 1_000;

/**
 * Calls `onIdle` once the daemon has been idle for `daemon.idleMinutes`: no open connection, no
 * accepted or running run, and no request since. While busy it looks every second (a connection's
 * end is not announced); while idle, when the idle time ends (at most a minute apart). The setting
 * is read again after requests (one may have changed it). The timer never keeps the process alive.
 * Returns the function each request calls.
 */
function watchIdle(
  app: RepaApplication,
  server: RepaServer,
  lastActivity: () => number,
  onIdle: () => void,
): () => void {
  let idleSince: number | undefined;
  let minutes: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let due = Number.POSITIVE_INFINITY;
  let done = false;
  const schedule = (ms: number) => {
    if (done || Date.now() + ms >= due) return;
    clearTimeout(timer);
    due = Date.now() + ms;
    timer = setTimeout(() => {
      due = Number.POSITIVE_INFINITY;
      void check();
    }, ms).unref();
  };
  const check = async () => {
    minutes ??= await app.idleMinutes().catch(() => 30);
    const now = Date.now();
    if (server.stats.connections > 0 || !app.idle) idleSince = undefined;
    else idleSince = Math.max(idleSince ?? now, lastActivity());
    const limit = minutes * 60_000;
    if (minutes > 0 && idleSince !== undefined && now - idleSince >= limit) {
      done = true;
      onIdle();
      return;
    }
    const wait =
      idleSince === undefined ? BUSY_CHECK_MS : minutes > 0 ? limit - (now - idleSince) : Infinity;
    schedule(Math.max(50, Math.min(wait, MAX_IDLE_CHECK_MS)));
  };
  schedule(0);
  return () => {
    minutes = undefined;
    schedule(BUSY_CHECK_MS);
  };
}
