import type { RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { describeError } from './panels.js';

/**
 * The composer's tutor-mode switch (spec R108): `study.mode` of the session as the next request
 * sees it; switching it stores a session override (starting the session when there is none yet),
 * as `/tutor` does in `repa chat`.
 */
export function TutorToggle({
  client,
  space,
  sessionId,
  session,
  onMode,
}: {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  /** The session to switch: the open one, or a new one started for it. */
  session: () => Promise<string | undefined>;
  /** Told whether tutor mode is on, each time that is read or switched. */
  onMode?: (on: boolean) => void;
}) {
  const [on, setOn] = useState(false);
  const [message, setMessage] = useState('');
  useEffect(() => onMode?.(on), [on, onMode]);
  useEffect(() => {
    let current = true;
    client
      .request('settings.get', sessionId ? { space, sessionId } : { space })
      .then(({ items }) => {
        if (current) setOn(items.find((item) => item.key === 'study.mode')?.value === 'tutor');
      })
      .catch(() => {}); // The switch is a convenience: a failed read leaves it as it was.
    return () => {
      current = false;
    };
  }, [client, space, sessionId]);
  const toggle = async () => {
    try {
      const id = await session();
      if (id === undefined) return;
      const { item } = await client.request('settings.set', {
        space,
        sessionId: id,
        level: 'session',
        key: 'study.mode',
        value: on ? 'answer' : 'tutor',
      });
      const tutoring = item.value === 'tutor';
      setOn(tutoring);
      setMessage(
        tutoring
          ? 'Tutor mode is on for this session: the agent asks back, hints before answering and checks your reasoning against the passage; it cannot change files or run commands.'
          : 'Tutor mode is off: the agent answers.',
      );
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  return html`<div class="tutor-toggle">
    <label class="switch" for="tutor-mode">
      <input type="checkbox" role="switch" id="tutor-mode" checked=${on} onChange=${() => void toggle()} />
      Tutor mode
    </label>
    <p class="panel-message" role="status">${message}</p>
  </div>`;
}
