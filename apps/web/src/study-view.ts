import {
  citedLines,
  formatInterval,
  parseCite,
  RATING_LABELS,
  RATING_NAMES,
  type RepaClient,
  type StudyDueCard,
  type StudyProgress,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { FileLink } from './file-links.js';
import { describeError } from './panels.js';

/** The most due cards one review takes (as `repa study`). */
const LIMIT = 50;

/** A rating given in this review: Undo takes these back, last first. */
interface Given {
  index: number;
  rating: number;
  due: string;
}

/** The cited lines of a card as `files.read` gives them now, or why there are none. */
type Passage = { lines: { line: number; text: string }[] } | { note: string };

/** The card's cited passage, numbered, beside the card; a link opens it in the reader. */
function SourcePassage({ card, passage }: { card: StudyDueCard; passage: Passage | undefined }) {
  const cite = card.source.cite;
  const place = cite === undefined ? undefined : parseCite(cite);
  if (cite === undefined || place === undefined) {
    return html`<p class="meta study-source">Written by hand in <${FileLink} place=${{ path: card.note, line: card.line }} />; it cites no passage.</p>`;
  }
  return html`<figure class="study-source" aria-label=${`The cited passage ${cite}`}>
    <figcaption>Source: <${FileLink} place=${{ path: place.document, line: place.startLine, endLine: place.endLine, page: place.page }}><code>${cite}</code></${FileLink}></figcaption>
    ${
      passage === undefined
        ? html`<p class="meta">Reading the passage…</p>`
        : 'note' in passage
          ? html`<p class="meta">${passage.note}</p>`
          : html`<ol class="study-lines">${passage.lines.map(
              ({ line, text }) =>
                html`<li value=${line}><span class="line-number" aria-hidden="true">${line}</span> ${text}</li>`,
            )}</ol>`
    }
  </figure>`;
}

/**
 * The Study view: counts per source (`study.status`), then the due cards one at a time with
 * progress: the front, the source-changed lines before it is rated, Show answer, the four ratings
 * each with the interval `study.due` gives, Undo of this review's last rating, the cited passage
 * beside the card, and a summary at the end. Keys while it is shown and nothing is being typed:
 * space shows the answer, 1–4 rate, u undoes.
 */
export function StudyView({ client, space }: { client: RepaClient; space: string }) {
  const root = useRef<HTMLElement>(null);
  const [sources, setSources] = useState<StudyProgress[]>([]);
  const [cards, setCards] = useState<StudyDueCard[] | undefined>(undefined);
  const [listedAt, setListedAt] = useState(0);
  const [index, setIndex] = useState(0);
  const [answered, setAnswered] = useState(false);
  const [given, setGiven] = useState<Given[]>([]);
  const [passage, setPassage] = useState<Passage | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [nextDue, setNextDue] = useState<string>('');
  const shownAt = useRef(Date.now());
  const busy = useRef(false);
  const card = cards?.[index];

  const loadStatus = async () => {
    setSources((await client.request('study.status', { space })).sources);
  };
  // The counts follow each rating; a key is not held up by them.
  const refreshStatus = () => {
    loadStatus().catch((error: unknown) => setMessage(describeError(error)));
  };
  const start = async () => {
    try {
      const due = await client.request('study.due', { space, limit: LIMIT });
      setListedAt(Date.now());
      setCards(due.cards);
      setIndex(0);
      setGiven([]);
      setAnswered(false);
      setMessage('');
      await loadStatus();
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  useEffect(() => {
    void start();
  }, [space]);

  // The shown card's passage, read as it is now.
  useEffect(() => {
    setPassage(undefined);
    shownAt.current = Date.now();
    const place = card?.source.cite === undefined ? undefined : parseCite(card.source.cite);
    if (!card || place === undefined) return;
    let current = true;
    client
      .request('files.read', { space, path: place.document })
      .then((read) => {
        const lines = citedLines(read, place);
        if (current) {
          setPassage(
            lines.length > 0 ? { lines } : { note: 'The document no longer has these lines.' },
          );
        }
      })
      .catch((error: unknown) => {
        if (current) setPassage({ note: describeError(error) });
      });
    return () => {
      current = false;
    };
  }, [card?.id, index]);

  // At the end: what is due next.
  useEffect(() => {
    if (!cards || card || cards.length === 0) return;
    const asked = client.request('study.due', { space, limit: 1 });
    asked.catch((error: unknown) => setMessage(describeError(error)));
    void asked.then((now) => {
      const next = given.map((one) => Date.parse(one.due)).sort((a, b) => a - b)[0];
      setNextDue(
        now.total > 0
          ? `Due now: ${now.total} card${now.total === 1 ? '' : 's'}.`
          : next === undefined
            ? 'Nothing is due now.'
            : `Nothing is due now; the next card is due in ${formatInterval(next - Date.now())}.`,
      );
    });
  }, [cards, card]);

  /** Runs one step at a time: a key pressed while a rating or an undo is on its way is dropped. */
  const step = async (action: () => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await action();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      busy.current = false;
    }
  };
  const rate = (rating: number) =>
    step(async () => {
      if (!card || !answered) return;
      const rated = await client.request('study.rate', {
        space,
        card: card.id,
        rating,
        durationMs: Math.min(Date.now() - shownAt.current, 86_400_000),
        mode: 'flip',
      });
      const interval = Date.parse(rated.card.fsrs.due) - Date.parse(rated.reviewedAt);
      setGiven([...given, { index, rating, due: rated.card.fsrs.due }]);
      setMessage(`${RATING_LABELS[rating - 1]}: due in ${formatInterval(interval)}.`);
      setIndex(index + 1);
      setAnswered(false);
      refreshStatus();
    });
  const undo = () =>
    step(async () => {
      const last = given.at(-1);
      if (last === undefined) return;
      const { undone } = await client.request('study.undo', { space });
      setGiven(given.slice(0, -1));
      setMessage(
        undone === null
          ? 'No rating to take back.'
          : `Took back ${RATING_LABELS[undone.rating - 1]} on card ${last.index + 1}.`,
      );
      setIndex(last.index);
      setAnswered(false);
      refreshStatus();
    });

  // Keys: only while the view is shown, and never while typing (the message box, any field).
  const keys = useRef<(event: KeyboardEvent) => void>(() => {});
  keys.current = (event) => {
    const view = root.current;
    const target = event.target as HTMLElement | null;
    if (!view?.checkVisibility() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
    // The page itself, the view, or a tab (the one that just showed the view).
    const mine = !target || target === document.body || view.contains(target);
    if (!mine && !target.closest('[role="tab"], .view-switch')) return;
    if (event.key === ' ' && card && !answered) setAnswered(true);
    else if (/^[1-4]$/u.test(event.key) && answered) void rate(Number(event.key));
    else if (event.key === 'u' && given.length > 0) void undo();
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => keys.current(event);
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const counts = RATING_NAMES.map(
    (name, at) => `${given.filter((one) => one.rating === at + 1).length} ${name}`,
  );
  return html`<section class="panel study-view" aria-labelledby="study-heading" ref=${root} tabIndex="-1">
    <h2 id="study-heading">Study</h2>
    ${
      sources.length > 0
        ? html`<table class="study-sources">
            <caption>Cards per source</caption>
            <thead><tr><th scope="col">Source</th><th scope="col">New</th><th scope="col">Learning</th><th scope="col">Review</th><th scope="col">Due</th><th scope="col">Changed</th></tr></thead>
            <tbody>${sources.map(
              (one) =>
                html`<tr><th scope="row"><${FileLink} place=${{ path: one.source }} /></th><td>${one.new}</td><td>${one.learning}</td><td>${one.review}</td><td>${one.due}</td><td>${one.sourceChanged || ''}</td></tr>`,
            )}</tbody>
          </table>`
        : ''
    }
    <p class="panel-message" role="status">${message}</p>
    ${
      cards === undefined
        ? html`<p class="meta">Reading the cards…</p>`
        : cards.length === 0
          ? html`<p class="meta">No cards are due. Write <code>question::answer</code> lines in a note, then <button type="button" class="study-again" onClick=${() => void start()}>Check again</button></p>`
          : card === undefined
            ? html`<div class="study-summary">
                <p>Rated ${given.length} of ${cards.length} card${cards.length === 1 ? '' : 's'}: ${counts.join(', ')}.</p>
                <p>${nextDue}</p>
                <div class="row">
                  ${given.length > 0 ? html`<button type="button" class="study-undo" onClick=${() => void undo()}>Undo (u)</button>` : ''}
                  <button type="button" class="study-again" onClick=${() => void start()}>Check for due cards</button>
                </div>
              </div>`
            : html`<article class="study-card" data-card=${card.id} aria-label=${`Card ${index + 1} of ${cards.length}`}>
                <p class="study-progress"><strong>Card ${index + 1} of ${cards.length}</strong> <span class="meta">· <${FileLink} place=${{ path: card.note, line: card.line }}><code>${card.note}:${card.line}</code></${FileLink}> · ${card.fsrs.state}</span></p>
                ${
                  card.source.status === 'changed'
                    ? html`<div class="study-changed" role="note">
                        <p><strong>Source changed:</strong> ${card.source.cite} no longer reads as when the card was written.</p>
                        <p>Was: <q>${card.source.quote}</q></p>
                        <p>Now: ${card.source.lines === null || card.source.lines === undefined ? html`<em>gone</em>` : html`<q>${card.source.lines}</q>`}</p>
                      </div>`
                    : ''
                }
                <p class="study-front">${card.front}</p>
                ${
                  answered
                    ? html`<p class="study-back">${card.back}</p>
                        <div class="row study-ratings" role="group" aria-label="Rate the card">
                          ${RATING_NAMES.map(
                            (name, at) =>
                              html`<button type="button" data-rating=${at + 1} onClick=${() => void rate(at + 1)}>${at + 1} ${RATING_LABELS[at]} <span class="meta">${formatInterval(Date.parse(card.next[name].due) - listedAt)}</span></button>`,
                          )}
                        </div>`
                    : html`<div class="row"><button type="button" class="study-show" onClick=${() => setAnswered(true)}>Show answer (space)</button></div>`
                }
                ${given.length > 0 ? html`<div class="row"><button type="button" class="study-undo" onClick=${() => void undo()}>Undo (u)</button></div>` : ''}
                <${SourcePassage} card=${card} passage=${passage} />
              </article>`
    }
  </section>`;
}
