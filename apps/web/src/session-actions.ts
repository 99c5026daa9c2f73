import type { RepaClient, SessionInfo } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { describeError } from './panels.js';

/** The open session's title with Rename and Delete (after a confirmation). */
export function SessionActions({
  client,
  space,
  session,
  onChanged,
  onDeleted,
}: {
  client: RepaClient;
  space: string;
  session: SessionInfo;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  // The title being typed (undefined: not renaming); kept here so a re-render keeps what is typed.
  const [draft, setDraft] = useState<string | undefined>();
  const renaming = draft !== undefined;
  const setRenaming = (on: boolean) => setDraft(on ? (session.title ?? '') : undefined);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (renaming) document.getElementById('session-title')?.focus();
  }, [renaming]);
  const title = session.title ?? 'Untitled session';
  const rename = async (event: Event) => {
    event.preventDefault();
    const wanted = (draft ?? '').trim();
    if (wanted === '') {
      setMessage('Give the session a title, or press Cancel.');
      return;
    }
    try {
      await client.request('session.rename', {
        space,
        sessionId: session.sessionId,
        title: wanted,
      });
      setRenaming(false);
      setMessage('');
      onChanged();
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const remove = async () => {
    if (
      !window.confirm(
        `Delete the session “${title}”? Its conversation and its runs are removed; your documents stay.`,
      )
    ) {
      return;
    }
    try {
      await client.request('session.delete', { space, sessionId: session.sessionId });
      setMessage('');
      onDeleted();
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  return html`<div class="session-head">
    ${
      renaming
        ? html`<form class="row rename" onSubmit=${rename}>
            <label for="session-title" class="visually-hidden">Session title</label>
            <input id="session-title" name="title" value=${draft} maxLength="500" onInput=${(
              event: Event,
            ) => setDraft((event.target as HTMLInputElement).value)} />
            <button type="submit">Save title</button>
            <button type="button" onClick=${() => setRenaming(false)}>Cancel</button>
          </form>`
        : html`<h2 class="session-title">${title}</h2>
            <button type="button" class="rename-session" onClick=${() => setRenaming(true)}>Rename</button>
            <button type="button" class="delete-session" onClick=${() => void remove()}>Delete</button>`
    }
    <p class="panel-message error-text" role="alert">${message}</p>
  </div>`;
}
