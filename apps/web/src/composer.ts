import type { ModelDecision, RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { useCallback, useState } from 'preact/hooks';
import { type ComposerImages, ImageTray } from './composer-images.js';
import { AttachedDocuments } from './documents-panel.js';
import { RunChoice, type RunChoiceValue } from './run-choice.js';
import { TutorCheckView, useTutorCheck } from './tutor-check.js';
import { TutorToggle } from './tutor-toggle.js';

/** How a request reaches the session: `new` when no reply streams, else after it or into it. */
export type Delivery = 'new' | 'queue' | 'steer' | 'followUp';

/**
 * The message box and what goes with the next request: the documents picked, its model choice,
 * tutor mode, images; Send, or while a reply streams Queue, Steer and Follow up. `submit` sends; the text is
 * cleared once the daemon accepted it. In tutor mode, Check my answer (Ctrl+Enter) checks the text
 * against the passage the last tutor reply cites instead (tutor-check.ts).
 */
export function Composer({
  client,
  space,
  sessionId,
  next,
  active,
  picked,
  onPick,
  images,
  choice,
  onChoice,
  onKept,
  session,
  submit,
}: {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  next: ModelDecision | undefined;
  /** A reply streams in the session. */
  active: boolean;
  picked: string[];
  onPick: (picked: string[]) => void;
  images: ComposerImages;
  choice: RunChoiceValue;
  onChoice: (choice: RunChoiceValue) => void;
  /** A model choice was kept for the session. */
  onKept: () => void;
  /** The open session, or a new one started for the tutor switch. */
  session: () => Promise<string | undefined>;
  submit: (delivery: Delivery, text: string) => Promise<boolean>;
}) {
  const [input, setInput] = useState('');
  const [tutoring, setTutoring] = useState(false);
  const onMode = useCallback((on: boolean) => setTutoring(on), []);
  const checker = useTutorCheck(client, space, sessionId);
  const send = async (event: Event, delivery?: 'queue' | 'steer' | 'followUp') => {
    event.preventDefault();
    const chosen = delivery ?? (active ? 'queue' : 'new');
    if (await submit(chosen, input.trim())) setInput('');
  };
  const check = async (event: Event) => {
    event.preventDefault();
    if (await checker.check(input.trim())) setInput('');
  };
  return html`<form class="composer" onSubmit=${send} onDragOver=${images.onDragOver} onDrop=${images.onDrop}>
                  <label for="message">Message <span class="meta">(Enter sends, Shift+Enter adds a line)</span></label>
                  <${AttachedDocuments} picked=${picked} onPick=${onPick} />
                  <textarea id="message" rows="3" value=${input} onPaste=${images.onPaste} onInput=${(
                    event: Event,
                  ) => setInput((event.target as HTMLTextAreaElement).value)} onKeyDown=${(
                    event: KeyboardEvent,
                  ) => {
                    // Enter sends (queues while a reply streams); Shift+Enter adds a line; in tutor
                    // mode Ctrl+Enter (⌘+Enter) checks the text as an answer instead.
                    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
                    if (tutoring && (event.ctrlKey || event.metaKey)) void check(event);
                    else void send(event);
                  }}></textarea>
                  <${RunChoice} client=${client} space=${space} sessionId=${sessionId} next=${next} value=${choice} onChange=${onChoice} onKept=${onKept} />
                  <${TutorToggle} client=${client} space=${space} sessionId=${sessionId} session=${session} onMode=${onMode} />
                  <${ImageTray} images=${images.images} onAdd=${images.add} onRemove=${images.remove} />
                  ${
                    active
                      ? html`<p class="meta" id="composer-help">
                            A reply is streaming. <strong>Queue</strong> sends your message after
                            it (Enter); <strong>Steer</strong> gives it to the reply at its
                            next step; <strong>Follow up</strong> gives it to the reply once its
                            current work is done.
                          </p>
                          <div class="row">
                            <button type="submit" class="queue" aria-describedby="composer-help">Queue</button>
                            <button type="button" class="steer" aria-describedby="composer-help" onClick=${(
                              event: Event,
                            ) => void send(event, 'steer')}>Steer</button>
                            <button type="button" class="follow-up" aria-describedby="composer-help" onClick=${(
                              event: Event,
                            ) => void send(event, 'followUp')}>Follow up</button>
                          </div>`
                      : html`<button type="submit">Send</button>`
                  }
                  ${
                    tutoring
                      ? html`<button type="button" class="tutor-check-button" aria-keyshortcuts="Control+Enter" disabled=${checker.busy} onClick=${(
                          event: Event,
                        ) =>
                          void check(
                            event,
                          )}>Check my answer <span class="meta">(Ctrl+Enter)</span></button>
                        <${TutorCheckView} check=${checker} />`
                      : ''
                  }
                </form>`;
}
