import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { KnownToRepa } from '@repa/host';
import { RepaError, type RestrictedItem, type SessionInfo, type TrustReason } from '@repa/protocol';
import type { SettingsStore } from '@repa/settings';
import { loadHost } from './load-host.js';
import { LATEST, uniqueByPrefix } from './named-ids.js';
import { type OpenedSpace, SpaceRecords } from './space-records.js';
import { TrustedSpaces } from './trusted-spaces.js';

/** Pi's rule for a session id (its `assertValidSessionId`): no separator, no leading dot. */
const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Where the learner sees the sessions of a space. */
const listHint = (space: string) =>
  `See the sessions of this space: repa sessions list --space ${space}`;

/** `not_found` for a session id (or its first characters) the space does not show. */
function noSession(space: string, typed: string): RepaError {
  const shown = SESSION_ID.test(typed) ? typed : JSON.stringify(typed);
  return new RepaError('not_found', `Space ${space} has no session ${shown}.`, {
    fix: `${listHint(space)}.`,
    details: { space, sessionId: typed },
  });
}

/**
 * The one trust decision of the application (spec R13). A space is untrusted until the learner
 * trusts it (`space.trust`), except a folder Repa itself makes a space: one with no `.repa/` and
 * nothing Pi or Repa would take from it (no `.pi/`, `.agents/skills`, instruction files), which
 * starts trusted (`created`). An untrusted space keeps what Repa itself made there usable: the
 * sessions it started and the learning contexts it wrote.
 */
export class SpaceTrust {
  readonly #trusted: TrustedSpaces;
  readonly #records: SpaceRecords;
  readonly #everySpace: boolean;
  /** Spaces already looked at by {@link admit} in this process. */
  readonly #admitted = new Map<string, Promise<void>>();

  constructor(appDirectory: string, ledgerPath: string, everySpace = false) {
    this.#trusted = new TrustedSpaces(appDirectory);
    this.#records = new SpaceRecords(ledgerPath);
    this.#everySpace = everySpace;
  }

  /**
   * Looks at a space the first time it is named: a plain folder becomes a trusted space, unless
   * `plain` is false (a folder under the home rule, design R17, is never trusted by itself). The
   * space joins the list of opened spaces.
   */
  admit(space: string, plain = true): Promise<void> {
    let admitted = this.#admitted.get(space);
    if (!admitted) {
      this.#records.addOpened(space);
      admitted = plain ? this.#admit(space) : Promise.resolve();
      admitted.catch(() => this.#admitted.delete(space));
      this.#admitted.set(space, admitted);
    }
    return admitted;
  }

  async #admit(space: string): Promise<void> {
    if (this.#everySpace || (await this.#trusted.reasonOf(space)) !== undefined) return;
    const repa = await lstat(join(space, '.repa')).then(
      () => true,
      () => false,
    );
    if (repa) return;
    const { inspectSpaceForTrust } = await loadHost();
    if ((await inspectSpaceForTrust(space, this.known(space))).length > 0) return;
    await this.#trusted.set(space, 'created');
  }

  /** Records that the learner named a folder under the home rule as a space (design R17). */
  name(space: string): void {
    this.#records.addNamed(space);
  }

  /** Whether the learner named the folder as a space. */
  isNamed(space: string): boolean {
    return this.#records.isNamed(space);
  }

  /** Why the space is trusted, or undefined when it is not. */
  async reasonOf(space: string): Promise<TrustReason | undefined> {
    if (this.#everySpace) return 'user';
    return this.#trusted.reasonOf(space);
  }

  /** Whether the learner trusts the space. */
  async isTrusted(space: string): Promise<boolean> {
    return (await this.reasonOf(space)) !== undefined;
  }

  /** Trusts or distrusts a space; answers whether it was trusted before. */
  set(space: string, trusted: boolean): Promise<boolean> {
    return this.#trusted.set(space, trusted ? 'user' : undefined);
  }

  /** What Repa itself made in the space. */
  known(space: string): KnownToRepa {
    return {
      contexts: this.#records.contexts(space),
      session: (sessionId) => this.#records.hasSession(space, sessionId),
    };
  }

  /** Records that the learner opened the space now (it moves to the top of the list). */
  addOpened(space: string): void {
    this.#records.addOpened(space);
  }

  /** The spaces the daemon opened, the last opened first. */
  opened(): OpenedSpace[] {
    return this.#records.opened();
  }

  /** Records a session Repa started. */
  addSession(space: string, sessionId: string): void {
    this.#records.addSession(space, sessionId);
  }

  /** Records a learning context Repa wrote (by its digest). */
  addContext(space: string, digest: string): void {
    this.#records.addContext(space, digest);
  }

  /**
   * The one check of a session id a method names: `not_found` unless the id is well formed (Pi's
   * rule for a session id) and names a session the space shows — one Repa started or ran there,
   * or any session of a trusted space. A session that came with an untrusted space, a made-up id
   * and a path are all answered alike, whatever the method.
   */
  async checkSession(space: string, sessionId: string): Promise<void> {
    const formed = SESSION_ID.test(sessionId);
    if (formed && this.#records.hasSession(space, sessionId)) return;
    const trusted = await this.isTrusted(space);
    const present =
      formed &&
      (await (await loadHost()).listSpaceSessions(space).then(
        (sessions) => sessions.some((session) => session.sessionId === sessionId),
        () => false,
      ));
    if (present && trusted) return;
    if (!present) throw noSession(space, sessionId);
    throw new RepaError(
      'not_found',
      `Session ${sessionId} came with this space; Repa did not start it, so it is not used until you trust the space.`,
      {
        fix: `${listHint(space)}. Look at ${join(space, '.repa', 'sessions')} first; trust the space with repa trust --space ${space}, or start a new session.`,
        details: { space, sessionId },
      },
    );
  }

  /**
   * The session `typed` names in the space, by the one rule of every client (`session.resolve`):
   * `latest`, the most recently changed session the space shows that is not `isStudy`; else a session id, or the first
   * characters of one among the sessions it shows. The id of a session it does not show is
   * refused as {@link checkSession} refuses it.
   */
  async findSession(
    space: string,
    typed: string,
    isStudy: (session: SessionInfo) => boolean,
  ): Promise<SessionInfo> {
    const all = await (await loadHost()).listSpaceSessions(space);
    const shown = await this.visibleSessions(space, all);
    if (typed === LATEST) {
      // The host lists the most recently changed first; a session Repa made for drafting,
      // quizzing or grading is the latest only when the space has no conversation.
      const latest = shown.find((session) => !isStudy(session)) ?? shown[0];
      if (latest !== undefined) return latest;
      throw new RepaError('not_found', `Space ${space} has no sessions.`, {
        fix: 'Start one with repa chat or repa run (or New session on the page), or name another space.',
        details: { space, session: typed },
      });
    }
    const hidden = !shown.some((session) => session.sessionId === typed);
    if (hidden && all.some((session) => session.sessionId === typed)) {
      await this.checkSession(space, typed);
    }
    return uniqueByPrefix(
      'session',
      typed,
      shown,
      (session) => session.sessionId,
      () => noSession(space, typed),
    );
  }

  /** The sessions the space may show: all when trusted, else the ones Repa started. */
  async visibleSessions<T extends { sessionId: string }>(
    space: string,
    sessions: T[],
  ): Promise<T[]> {
    if (await this.isTrusted(space)) return sessions;
    return sessions.filter((session) => this.#records.hasSession(space, session.sessionId));
  }

  /** What the space holds that has no effect until it is trusted (empty when it is trusted). */
  async restricted(space: string, settings: SettingsStore): Promise<RestrictedItem[]> {
    if (await this.isTrusted(space)) return [];
    const { inspectSpaceForTrust } = await loadHost();
    const items = await inspectSpaceForTrust(space, this.known(space));
    const ignored = (await settings.get({ space }).catch(() => [])).filter((item) => item.ignored);
    if (ignored.length > 0) {
      items.push({
        kind: 'settings',
        path: '.repa/settings.json',
        detail: `Repa settings that change what runs or what the model is told: ${ignored.map((item) => item.key).join(', ')}.`,
      });
    }
    return items;
  }

  /** Closes the records. */
  close(): void {
    this.#records.close();
  }
}
