import type { PiConversationHost, PiModels } from '@repa/host';
import type { RepaApplicationOptions } from './application-options.js';
import { loadHost } from './load-host.js';
import type { SpaceTrust } from './space-trust.js';

/** The key of a session among all spaces' sessions. */
export function sessionKey(space: string, sessionId: string): string {
  return `${space}\0${sessionId}`;
}

/**
 * The open {@link PiConversationHost} of each session (one writer per session file), opened under
 * its space's trust, and the session files already found.
 */
export class SessionHosts {
  readonly #options: RepaApplicationOptions;
  readonly #trust: SpaceTrust;
  readonly #models: () => Promise<PiModels>;
  readonly #hosts = new Map<string, Promise<PiConversationHost>>();
  /** The trust each cached host was opened with. */
  readonly #hostTrust = new Map<string, boolean>();
  /** Bumped when Pi packages change: a host opened before opens again at its next run. */
  #packages = 0;
  readonly #hostPackages = new Map<string, number>();
  /** Session files already found, by session key (Pi's listing parses every session). */
  readonly #sessionFiles = new Map<string, string>();

  constructor(options: RepaApplicationOptions, trust: SpaceTrust, models: () => Promise<PiModels>) {
    this.#options = options;
    this.#trust = trust;
    this.#models = models;
  }

  /**
   * The session's host, opened with the space's trust; with `trusted` given, a host opened under
   * the other trust is disposed and opened again (trust changed between runs). A host opened here
   * starts on `model` (the run's), else on the model a run uses when nothing names one.
   */
  async host(
    space: string,
    sessionId: string,
    trusted?: boolean,
    model?: string,
  ): Promise<PiConversationHost> {
    const key = sessionKey(space, sessionId);
    let host = this.#hosts.get(key);
    if (host && trusted !== undefined && this.#hostTrust.get(key) !== trusted) {
      this.#hosts.delete(key);
      await host.then((opened) => opened.dispose()).catch(() => undefined);
      host = undefined;
    }
    if (host && this.#hostPackages.get(key) !== this.#packages) {
      // Spec R75: what the packages bring is loaded when a session's host opens.
      const opened = await host.catch(() => undefined);
      if (!opened?.busy) {
        this.#hosts.delete(key);
        opened?.dispose();
        host = undefined;
      }
    }
    if (!host) {
      const opening = trusted ?? (await this.#trust.isTrusted(space));
      this.#hostTrust.set(key, opening);
      this.#hostPackages.set(key, this.#packages);
      host = this.#open(space, sessionId, opening, model);
      // A failed open is not cached: the next run tries again (e.g. after the file was repaired).
      host.catch(() => this.#hosts.delete(key));
      this.#hosts.set(key, host);
    }
    return host;
  }

  /**
   * Pi packages changed: every session's host opens again at its next run. Returns how many runs
   * are under way, which finish with what their session loaded.
   */
  async packagesChanged(): Promise<number> {
    this.#packages += 1;
    const opened = await Promise.all(
      [...this.#hosts.values()].map((host) => host.catch(() => undefined)),
    );
    return opened.filter((host) => host?.busy).length;
  }

  /** The session's host if one is open (or opening) here. */
  opened(space: string, sessionId: string): Promise<PiConversationHost> | undefined {
    return this.#hosts.get(sessionKey(space, sessionId));
  }

  /** The session's file (`not_found`, `session_damaged`), found once. */
  async sessionFile(space: string, sessionId: string): Promise<string> {
    const key = sessionKey(space, sessionId);
    const known = this.#sessionFiles.get(key);
    if (known) return known;
    const file = await (await loadHost()).findSessionFile(space, sessionId);
    this.#sessionFiles.set(key, file);
    return file;
  }

  /** Disposes of the session's host and forgets its file (the session is being deleted). */
  async release(space: string, sessionId: string): Promise<void> {
    const key = sessionKey(space, sessionId);
    const host = this.#hosts.get(key);
    this.#hosts.delete(key);
    this.#sessionFiles.delete(key);
    await host?.then((opened) => opened.dispose()).catch(() => undefined);
  }

  /** Disposes of every host. */
  async disposeAll(): Promise<void> {
    for (const host of this.#hosts.values()) {
      await host.then((h) => h.dispose()).catch(() => undefined);
    }
  }

  async #open(
    space: string,
    sessionId: string,
    trusted: boolean,
    label: string | undefined,
  ): Promise<PiConversationHost> {
    const sessionFile = await this.sessionFile(space, sessionId);
    const [{ PiConversationHost }, models] = await Promise.all([loadHost(), this.#models()]);
    const model = label ? models.resolve(label) : (await models.defaultModel()).model;
    const host = await PiConversationHost.open({
      space,
      sessionFile,
      appDirectory: this.#options.appDirectory,
      agentDir: models.agentDir,
      modelRuntime: models.modelRuntime,
      model,
      trusted,
      // Test seams the host marks @internal (not in its published types), hence spread in.
      ...(this.#options.contentHooks ? { contentHooks: this.#options.contentHooks } : {}),
      ...(this.#options.learningContextReader
        ? { learningContextReader: this.#options.learningContextReader }
        : {}),
    });
    // Spec R75: Pi's resource diagnostics (failed or refused extensions, bad skills) are logged.
    const log = this.#options.log ?? ((line: string) => process.stderr.write(line));
    for (const { kind, severity, message, path } of host.resourceDiagnostics) {
      log(
        `${new Date().toISOString()} packages ${space}: ${severity} ${kind}${path ? ` ${path}` : ''}: ${message}\n`,
      );
    }
    return host;
  }
}
