import { type Citation, citationPlace } from '@repa/protocol';
import { html } from 'htm/preact';
import { FileLink } from './file-links.js';

/** Why a citation is not verified, in words. */
const REASONS: Record<Exclude<Citation['status'], 'verified'>, string> = {
  quote_not_found: 'the quoted words are not in those lines',
  range_outside: 'those lines are past the end of the document',
  not_read: 'that passage was not read in this conversation',
  unknown_document: 'the space has no such document',
};

/** One citation as a chip that opens the cited lines of the version read (spec R60). */
function CitationChip({ citation }: { citation: Citation }) {
  const reason = citation.status === 'verified' ? undefined : REASONS[citation.status];
  const verified = reason === undefined;
  const mark = verified ? '✓' : '✗';
  return html`<li>
    <details class=${`citation-chip ${verified ? 'verified' : 'unverified'}`} data-status=${citation.status}>
      <summary>[${citation.index}] ${citationPlace(citation)} ${mark}${citation.changedSince ? ' · changed since' : ''}</summary>
      ${reason ? html`<p class="citation-reason">Not verified: ${reason}.</p>` : ''}
      ${citation.quote ? html`<p class="citation-quote">“${citation.quote}”</p>` : ''}
      ${citation.excerpt ? html`<pre class="citation-excerpt">${citation.excerpt}</pre>` : ''}
      <${FileLink} place=${{ path: citation.target ?? citation.document, line: citation.startLine, endLine: citation.endLine, page: citation.page }}>Open in the reader<//>
      ${citation.changedSince ? html`<p class="citation-reason">The document changed since the run read it.</p>` : ''}
    </details>
  </li>`;
}

/** An answer's citations: a summary ("4 of 5 citations verified") and a chip for each. */
export function CitationChips({ citations }: { citations: readonly Citation[] | undefined }) {
  if (!citations?.length) return '';
  const verified = citations.filter((citation) => citation.status === 'verified').length;
  const noun = citations.length === 1 ? 'citation' : 'citations';
  return html`<div class="citations">
    <p class="citation-summary">${verified} of ${citations.length} ${noun} verified</p>
    <ul class="citation-chips">
      ${citations.map((citation) => html`<${CitationChip} key=${citation.index} citation=${citation} />`)}
    </ul>
  </div>`;
}
