import {
  type RepaClient,
  RepaError,
  type RestrictedItem,
  type SessionInfo,
  type TrustReason,
} from '@repa/protocol';
import { useRef, useState } from 'preact/hooks';
import { placeFromAddress, writeAddress } from './address.js';
import { describeError } from './panels.js';
import { useKnownSpaces } from './spaces.js';

/** The space open in the page, with its trust as `space.open` (or the learner) last set it. */
export interface OpenSpace {
  root: string;
  name: string;
  trusted: boolean;
  /** Why it is trusted: `created` when Repa made it a space itself. */
  trustReason?: TrustReason;
  restricted: RestrictedItem[];
}

/** What the page does beside the open space and session when they change. */
export interface SpaceSessionsEvents {
  /** A session was chosen (or none): what the page shows of the one before goes. */
  onSelect(): void;
  /** A space was opened. */
  onOpen(): void;
  /** The open space's trust changed: the panels read again. */
  onTrustChanged(): void;
  /** A line for the learner (empty: the last one goes). */
  onNotice(text: string): void;
}

/** The session the daemon names for `typed` (an id or its start), else the space's latest; none. */
async function sessionNamed(
  client: RepaClient,
  space: string,
  typed: string | undefined,
): Promise<string | undefined> {
  for (const session of typed === undefined ? ['latest'] : [typed, 'latest']) {
    try {
      return (await client.request('session.resolve', { space, session })).session.sessionId;
    } catch (error) {
      if (!(RepaError.isInstance(error) && error.code === 'not_found')) throw error;
    }
  }
  return undefined;
}

/**
 * The open space, its sessions and the open session (named in the page's address, so a reload
 * returns to them), with the spaces the daemon has opened and the space folder typed so far.
 */
export function useSpaceSessions(client: RepaClient, events: SpaceSessionsEvents) {
  const [opened, setOpened] = useState(0);
  const known = useKnownSpaces(client, opened);
  const [pathInput, setPathInput] = useState(placeFromAddress().space ?? '');
  const [space, setSpace] = useState<OpenSpace | undefined>();
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [sessionId, setSessionId] = useState<string | undefined>();

  // Only the latest listing is shown: an older one answered later (a run ended just before a
  // rename) would bring back the old title.
  const listing = useRef(0);
  const load = async (root: string): Promise<SessionInfo[]> => {
    const ticket = ++listing.current;
    const { sessions: list } = await client.request('session.list', { space: root });
    if (ticket === listing.current) setSessions(list);
    return list;
  };

  const select = async (root: string, id: string | undefined) => {
    setSessionId(id);
    writeAddress({ space: root, session: id });
    events.onSelect();
  };

  /** Opens a space at `session` (when it still has it), else at its latest session. */
  const open = async (root: string, session?: string) => {
    events.onNotice('');
    try {
      const { space: info } = await client.request('space.open', { root });
      setSessionId(undefined); // Not the other space's session, even for a moment.
      setSpace({
        root: info.root,
        name: info.name,
        trusted: info.trusted === true,
        ...(info.trustReason === undefined ? {} : { trustReason: info.trustReason }),
        restricted: info.restricted ?? [],
      });
      setOpened((count) => count + 1);
      events.onOpen();
      setPathInput(info.root);
      const listed = load(info.root);
      // The session the address names is read at once, beside the daemon's answer that confirms it.
      if (session !== undefined) await select(info.root, session);
      const named = await sessionNamed(client, info.root, session);
      await listed;
      if (session === undefined || named !== session) await select(info.root, named);
    } catch (error) {
      events.onNotice(describeError(error));
    }
  };

  /** Trusts the open space: what it holds (listed in the banner) takes effect from the next run. */
  const trust = async () => {
    if (!space) return;
    try {
      await client.request('space.trust', { space: space.root, trusted: true });
      setSpace({ ...space, trusted: true, restricted: [] });
      await load(space.root);
      events.onTrustChanged();
    } catch (error) {
      events.onNotice(describeError(error));
    }
  };

  /** The open space's trust as the trust control changed it. */
  const trustChanged = (trusted: boolean, restricted: RestrictedItem[]) => {
    if (!space) return;
    // Trusted from the page is the learner's own trust (`user`); untrusted has no reason.
    const { trustReason: _, ...rest } = space;
    setSpace({
      ...rest,
      trusted,
      restricted,
      ...(trusted ? { trustReason: 'user' as const } : {}),
    });
    events.onTrustChanged();
  };

  const create = async () => {
    if (!space) return;
    try {
      const { session } = await client.request('session.create', { space: space.root });
      await load(space.root);
      await select(space.root, session.sessionId);
    } catch (error) {
      events.onNotice(describeError(error));
    }
  };

  /** A session the page's first request created: open from now on, already shown. */
  const started = (root: string, id: string) => {
    setSessionId(id);
    writeAddress({ space: root, session: id });
    void load(root);
  };

  return {
    known,
    pathInput,
    setPathInput,
    space,
    sessions,
    sessionId,
    /** Reads the space's sessions again (the latest read wins). */
    load,
    select,
    open,
    trust,
    trustChanged,
    /** Creates a session and opens it. */
    create,
    started,
  };
}

/** The open space and session, and what changes them. */
export type SpaceSessions = ReturnType<typeof useSpaceSessions>;
