import {
  gradeCountTotal,
  RATING_NAMES,
  type RepaClient,
  type StudyCalendarDay,
  type StudyProgress,
  studyChangedText,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { FileLink } from './file-links.js';
import { describeError } from './panels.js';

type Status = { sources: StudyProgress[]; calendar: StudyCalendarDay[] };

const percent = (value: number) => `${Math.round(value * 100)}%`;
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A calendar day (`YYYY-MM-DD`) as people read it: `Monday 9 March`, or `M` and `9` for a column. */
function dayLabel(date: string, format: Intl.DateTimeFormatOptions): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, {
    timeZone: 'UTC',
    ...format,
  });
}

/** One source: its recall bar with the due count, then its counts in words. */
function SourceRow({ one }: { one: StudyProgress }) {
  const recall = one.recall === null ? 'no card reviewed yet' : `recall now ${percent(one.recall)}`;
  const answers = (['none', 'hint', 'passage'] as const)
    .filter((help) => gradeCountTotal(one.answers[help]) > 0)
    .map((help) => {
      const grades = RATING_NAMES.filter((name) => one.answers[help][name] > 0).map(
        (name) => `${one.answers[help][name]} ${name}`,
      );
      return `${help === 'none' ? 'unaided' : `after the ${help}`} ${grades.join(', ')}`;
    });
  const changed = studyChangedText(one);
  return html`<li class="progress-source" data-source=${one.source}>
    <p class="progress-name"><${FileLink} place=${{ path: one.source }} />${
      one.version === null ? html` <span class="meta">by hand</span>` : ''
    }</p>
    <div class="progress-line">
      <div class="progress-bar" role="img" aria-label=${`${one.source}: ${recall}`} data-recall=${one.recall ?? ''}>
        <span style=${`width: ${one.recall === null ? 0 : Math.round(one.recall * 100)}%`}></span>
      </div>
      <span class="progress-recall">${one.recall === null ? '–' : percent(one.recall)}</span>
      <span class="progress-due" data-due=${one.due}>${one.due} due</span>
    </div>
    <p class="meta progress-counts">
      ${plural(one.cards, 'card')}: ${one.new} new, ${one.learning} learning, ${one.review} in review
      · ${one.lastStudied === null ? 'never studied' : `last studied ${new Date(one.lastStudied).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`}
      ${answers.length > 0 ? html` · quiz answers ${answers.join('; ')}` : ''}
      ${changed !== '' ? html` · <strong class="progress-changed">source changed: ${changed}</strong>` : ''}
    </p>
  </li>`;
}

/** The next 14 days' reviews as bars, today first, each labelled with its day and count. */
function Calendar({ days }: { days: StudyCalendarDay[] }) {
  const most = Math.max(1, ...days.map((day) => day.due));
  return html`<ol class="progress-calendar" aria-label="Reviews due on each of the next 14 days">
    ${days.map(
      (day, at) =>
        html`<li class=${at === 0 ? 'progress-today' : ''} data-date=${day.date} data-due=${day.due} aria-label=${`${at === 0 ? 'Today, ' : ''}${dayLabel(day.date, { weekday: 'long', day: 'numeric', month: 'long' })}: ${plural(day.due, 'review')} due`}>
          <span class="progress-count">${day.due}</span>
          <span class="progress-column"><span style=${`height: ${Math.round((day.due / most) * 100)}%`}></span></span>
          <span class="progress-day" aria-hidden="true">${dayLabel(day.date, { weekday: 'narrow' })}<br />${dayLabel(day.date, { day: 'numeric' })}</span>
        </li>`,
    )}
  </ol>`;
}

/**
 * The Progress view: per source a bar of its recall now with its due count and its counts in words,
 * then the reviews due on each of the next 14 days of the page's time zone, all drawn from
 * `study.status` as it answers (read again each time the view comes on screen).
 */
export function ProgressView({ client, space }: { client: RepaClient; space: string }) {
  const root = useRef<HTMLElement>(null);
  const [status, setStatus] = useState<Status | undefined>(undefined);
  const [message, setMessage] = useState('');
  const load = () =>
    client
      .request('study.status', {
        space,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      })
      .then((result) => {
        setStatus(result);
        setMessage('');
      })
      .catch((error: unknown) => setMessage(describeError(error)));
  // Read again each time the view comes on screen (a tab, or a phone's view switch, shows it).
  useEffect(() => {
    const view = root.current;
    if (!view) return;
    const watcher = new IntersectionObserver((seen) => {
      if (seen.some((one) => one.isIntersecting)) void load();
    });
    watcher.observe(view);
    return () => watcher.disconnect();
  }, [space]);
  return html`<section class="panel progress-view" aria-labelledby="progress-heading" ref=${root}>
    <h2 id="progress-heading">Progress</h2>
    <p class="panel-message" role="status">${message}</p>
    ${
      status === undefined
        ? html`<p class="meta">Reading the study log…</p>`
        : status.sources.length === 0
          ? html`<p class="meta">No cards or answers yet. Write <code>question::answer</code> lines in a note.</p>`
          : html`<h3>Recall now and due per source</h3>
            <ul class="progress-sources">${status.sources.map((one) => html`<${SourceRow} one=${one} />`)}</ul>
            <h3>Reviews due, next 14 days</h3>
            <${Calendar} days=${status.calendar} />`
    }
    <div class="row"><button type="button" class="progress-refresh" onClick=${() => void load()}>Refresh</button></div>
  </section>`;
}
