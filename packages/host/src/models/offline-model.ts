import {
  type AssistantMessage,
  type FauxResponseFactory,
  fauxAssistantMessage,
  fauxProvider,
  fauxToolCall,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import { OFFLINE_MODEL_ID } from '@repa/protocol';
import { RESUME_NOTE } from '../sessions/index.js';
import { answerEveryRequest } from './faux-model-choice.js';
import { draftCardsOffline } from './offline-cards.js';
import { citationOf } from './offline-citation.js';
import { gradeOffline } from './offline-grade.js';
import { offlineSummary } from './offline-summary.js';
import { openingOf, tutorHint } from './offline-tutor.js';

type Message = TranscriptContext['messages'][number];

function textOf(message: Message | undefined): string {
  if (!message || message.role === 'system') return '';
  const content = (message as { content: unknown }).content;
  if (typeof content === 'string') return content;
  return (content as { type: string; text?: string }[])
    .map((block) => (block.type === 'text' ? (block.text ?? '') : ''))
    .join('\n');
}

interface Turn {
  request: string;
  results: { toolName: string; isError: boolean; text: string }[];
}

function currentTurn(context: TranscriptContext): Turn {
  const messages = context.messages;
  let start = messages.length - 1;
  while (start >= 0) {
    const message = messages[start];
    // The user's own request: learning-context and file-change notices also arrive as `user`.
    if (
      message?.role === 'user' &&
      !/^(The space's current learning context|Files you read)/.test(textOf(message)) &&
      textOf(message) !== RESUME_NOTE
    ) {
      break;
    }
    start -= 1;
  }
  const results = messages
    .slice(start + 1)
    .flatMap((message) =>
      message.role === 'toolResult'
        ? [{ toolName: message.toolName, isError: message.isError, text: textOf(message) }]
        : [],
    );
  return { request: textOf(messages[start]), results };
}

const say = (text: string): AssistantMessage =>
  fauxAssistantMessage(`[${OFFLINE_MODEL_ID}] ${text}`);
const call = (name: string, args: Parameters<typeof fauxToolCall>[1]): AssistantMessage =>
  fauxAssistantMessage([fauxToolCall(name, args)], { stopReason: 'toolUse' });

const EDIT = /replace\s+["“']([^"”']+)["”']\s+with\s+["“']([^"”']*)["”']\s+in\s+([\w./-]+)/i;
const PATCH = /^\*\*\* Begin Patch$[\s\S]*?^\*\*\* End Patch$/m;
const FILE =
  /([\w-]+(?:\/[\w.-]+)*\.(?:md|markdown|txt|rst|org|csv|json|pdf|docx|epub|html?|xhtml))/i;
const MATERIAL = /repa:material\/[A-Za-z0-9_-]+/;
/** A page or chapter marker of a document's text, as the read tool shows it. */
const MARKER = /^\[(Page|Chapter) (\d+) of \d+/;

/** The system prompt as Pi renders it into the transcript (its sections joined in its text). */
function systemText(context: TranscriptContext): string {
  return context.messages
    .flatMap((message) => {
      if (message.role !== 'system') return [];
      const { content, sections } = message as { content: unknown; sections?: unknown };
      const text = Array.isArray(content)
        ? content.map((part: { text?: string }) => part.text ?? '').join('')
        : String(content);
      return [text, ...Object.values(sections ?? {}).map(String)];
    })
    .join('\n');
}

/**
 * The outside material a request names: by identity, or by the id or title the system prompt's
 * `materials` section lists for it (spec R15).
 */
function namedMaterial(request: string, context: TranscriptContext): string | undefined {
  const identity = MATERIAL.exec(request)?.[0];
  if (identity) return identity;
  const section = systemText(context).split('<materials>\n').at(-1)?.split('\n</materials>')[0];
  const asked = request.toLowerCase();
  for (const line of section?.split('\n') ?? []) {
    const listed = /^- (repa:material\/([A-Za-z0-9_-]+))(?: "([^"]*)")?/.exec(line);
    if (!listed) continue;
    const [, found, id, title] = listed as unknown as [string, string, string, string | undefined];
    const named = title
      ?.replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
    if (named && named.length > 3 && asked.includes(named.toLowerCase())) return found;
    if (id.length > 2 && new RegExp(`\\b${id.toLowerCase()}\\b`).test(asked)) return found;
  }
  return undefined;
}

/**
 * An answer from the lines of a whole-file `read` result, each claim cited by its line; in tutor
 * mode a question back and a hint citing the passage instead ({@link tutorHint}).
 */
function answerFrom(path: string, text: string, question: string, tutoring: boolean): string {
  const words = new Set(
    question
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 3),
  );
  // The read began at line 1: a line's number is its place in the result (a trailer comes after).
  // A document's lines know their page (or chapter) and their line on it: the answer names it.
  let page: { name: string; number: number; marker: number } | undefined;
  const numbered = text.split('\n').map((raw, index) => {
    const line = raw.trim();
    const marker = MARKER.exec(line);
    if (marker) {
      page = {
        name: `${marker[1]?.toLowerCase()} ${marker[2]}`,
        number: Number(marker[2]),
        marker: index,
      };
      return { line, number: index + 1 };
    }
    return {
      line,
      number: index + 1,
      ...(page === undefined ? {} : { page: { ...page, line: index - page.marker } }),
    };
  });
  const nonEmpty = numbered.filter(
    ({ line }) => line !== '' && !/^\d+$/.test(line) && !MARKER.test(line),
  );
  // Prose first: a Markdown heading names a topic, it does not answer a question.
  const prose = nonEmpty.filter(({ line }) => !line.startsWith('#') && !/^\[.*\]$/.test(line));
  const lines = prose.length > 0 ? prose : nonEmpty;
  const scored = lines
    .map((entry) => ({
      ...entry,
      score: entry.line
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => words.has(word)).length,
    }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = scored[0]?.score ?? 0;
  const chosen = (best > 0 ? scored.filter((entry) => entry.score === best) : lines).slice(0, 2);
  const where = [...new Set(chosen.flatMap((entry) => entry.page?.name ?? []))];
  const at = where.length > 0 ? ` (${where.join(', ')})` : '';
  const cited = chosen.map((entry) => {
    const { line, number, page: on } = entry;
    // A tutor's citation quotes only the passage's opening: the quote must not be the answer.
    const quoted = tutoring ? openingOf(line) : line;
    const citation = on
      ? citationOf(path, on.line, quoted, on.number)
      : citationOf(path, number, quoted);
    return { line, citation };
  });
  if (tutoring) return tutorHint(path, at, cited);
  const answer = cited.map(({ line, citation }) => `${line} ${citation}`).join(' ');
  return `From ${path}${at}: ${answer || '(the file is empty)'}`;
}

// Words that say how a question is asked, not what it is about.
const STOP_WORDS = new Set(
  (
    'about also what which when where does doing have there their them they this that these those ' +
    'from with into your mine notes note file files folder space tell know think write wrote ' +
    'said says say please could would should will shall find search look show give some any ' +
    'much many more most very just like only than then were been being anything something everything'
  ).split(' '),
);

/** The distinctive words of a request, crudely stemmed (`tides` → `tide`), at most five. */
function searchWords(request: string): string[] {
  const words = request
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 3 && !STOP_WORDS.has(word))
    .map((word) =>
      word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
  return [...new Set(words)].slice(0, 5);
}

const GREP_HIT = /^(.+?):(\d+): (.*)$/;

/** The file whose lines hold the most of `words` (then the most hits, then the first found). */
function bestGrepHit(grepText: string, words: readonly string[]): string | undefined {
  const files = new Map<string, { words: Set<string>; hits: number }>();
  for (const line of grepText.split('\n')) {
    const hit = GREP_HIT.exec(line);
    if (!hit) continue;
    const [, path, , text] = hit as unknown as [string, string, string, string];
    const entry = files.get(path) ?? { words: new Set<string>(), hits: 0 };
    for (const word of words) if (text.toLowerCase().includes(word)) entry.words.add(word);
    entry.hits += 1;
    files.set(path, entry);
  }
  let best: string | undefined;
  let bestScore = -1;
  for (const [path, entry] of files) {
    // Distinct words first, then the number of hits.
    const score = entry.words.size * 1_000_000 + entry.hits;
    if (score > bestScore) {
      best = path;
      bestScore = score;
    }
  }
  return best;
}

/** The first path a `find` result lists. */
function firstFound(findText: string): string | undefined {
  const first = findText.split('\n\n')[0]?.split('\n')[0];
  return first === undefined || first === '' || first.startsWith('No files found')
    ? undefined
    : first;
}

/**
 * A request that names no file: `grep` for its distinctive words, else `find` names holding one,
 * then `read` the best hit and answer from it, naming the file. `undefined` when there is nothing
 * to search for or nothing was found.
 */
function searchAndAnswer(
  request: string,
  results: Turn['results'],
  tutoring: boolean,
): AssistantMessage | undefined {
  const words = searchWords(request);
  if (words.length === 0) return undefined;
  const grep = results.find((result) => result.toolName === 'grep');
  if (!grep) return call('grep', { pattern: words.join('|'), ignoreCase: true, limit: 200 });
  const find = results.find((result) => result.toolName === 'find');
  const read = results.find((result) => result.toolName === 'read');
  const path = bestGrepHit(grep.text, words) ?? (find ? firstFound(find.text) : undefined);
  if (path === undefined) {
    const names = words.length === 1 ? words[0] : `{${words.join(',')}}`;
    return find ? undefined : call('find', { pattern: `*${names}*` });
  }
  if (!read) return call('read', { path });
  const answer = answerFrom(path, read.text, request, tutoring);
  return say(`${answer} (I searched the space and used ${path}.)`);
}

/**
 * A deterministic responder for the offline model: it reads the file a request names (a document
 * too, as its text) or the outside material it names by identity, id or title, and answers from
 * its content; a request naming no file is searched for (`grep`, then `find`) and answered
 * from the best hit; `replace "X" with "Y" in FILE` is performed through `read` then `edit`, and
 * a Codex-format patch in the request (`*** Begin Patch` … `*** End Patch`) through a `read` of
 * each file it updates or deletes, then `apply_patch`; Pi's summary requests of a compaction are
 * answered by {@link offlineSummary}.
 * A study draft request (`repa study draft`) is answered with cloze cards from the passage it
 * reads, a quiz request with cloze questions (`offline-cards.ts`), and a grade request with a grade
 * by the passage's words (`offline-grade.ts`). In tutor mode (the system prompt's `tutor` section) a question is
 * answered with a question back and a hint citing the passage (`offline-tutor.ts`).
 * Contract: it never claims to be a language model; every answer starts with `[repa-offline]`.
 */
export const offlineResponder: FauxResponseFactory = (context) => {
  // Pi's compaction asks for a summary: answered in text, never with a tool call.
  const summary = offlineSummary(textOf(context.messages.at(-1)));
  if (summary !== undefined) return fauxAssistantMessage(summary);
  const { request, results } = currentTurn(context);
  const failed = results.find((result) => result.isError);
  if (failed) return say(`The ${failed.toolName} tool failed: ${failed.text}`);
  const graded = gradeOffline(request);
  if (graded !== undefined) return say(graded);
  const drafted = draftCardsOffline(request, results);
  if (drafted) return drafted.kind === 'read' ? call('read', drafted.args) : say(drafted.text);
  const patch = PATCH.exec(request)?.[0];
  if (patch) {
    // Every file the patch changes is read first (the tool refuses files it has not seen).
    const paths = [...patch.matchAll(/^\*\*\* (?:Update|Delete) File: (.+)$/gm)].map((match) =>
      (match[1] as string).trim(),
    );
    const reads = results.filter((result) => result.toolName === 'read').length;
    if (reads < paths.length) return call('read', { path: paths[reads] as string });
    const applied = results.find((result) => result.toolName === 'apply_patch');
    if (!applied) return call('apply_patch', { input: patch });
    return say(applied.text);
  }
  const edit = EDIT.exec(request);
  if (edit) {
    const [, oldText, newText, path] = edit as unknown as [string, string, string, string];
    if (!results.some((result) => result.toolName === 'read')) return call('read', { path });
    if (!results.some((result) => result.toolName === 'edit')) {
      return call('edit', { path, edits: [{ oldText, newText }] });
    }
    return say(`Saved ${path}: replaced "${oldText}" with "${newText}".`);
  }
  // Tutor mode (`study.mode`): the `tutor` section is in the system prompt.
  const tutoring = systemText(context).includes('<tutor>');
  const file = namedMaterial(request, context) ?? FILE.exec(request)?.[1];
  if (file) {
    const read = results.find((result) => result.toolName === 'read');
    if (!read) return call('read', { path: file });
    return say(answerFrom(file, read.text, request, tutoring));
  }
  const searched = searchAndAnswer(request, results, tutoring);
  if (searched) return searched;
  const background = context.messages
    .map(textOf)
    .filter((text) => text.includes('<learning-context>'))
    .at(-1);
  const body = background?.split('<learning-context>\n')[1]?.split('\n</learning-context>')[0];
  if (body) {
    return say(
      `I am a local responder, not a language model. The space's learning context says: ${body.split('\n')[0]}`,
    );
  }
  const words = searchWords(request);
  return say(
    words.length > 0
      ? `I am a local responder, not a language model. I searched the space for ${words.map((word) => `"${word}"`).join(', ')} and found nothing; name a file (e.g. notes/a.md) to read it.`
      : 'I am a local responder, not a language model. Name a file (e.g. notes/a.md) to read it, ask about words in your notes to search them, or ask me to replace "X" with "Y" in a file.',
  );
};

/** The offline model's faux provider, answering every request with {@link offlineResponder}. */
export function createOfflineProvider(): ReturnType<typeof fauxProvider> {
  const faux = fauxProvider({
    provider: OFFLINE_MODEL_ID,
    api: OFFLINE_MODEL_ID,
    models: [
      {
        id: OFFLINE_MODEL_ID,
        name: 'Repa offline responder (no language model)',
        contextWindow: 128_000,
        maxTokens: 8_192,
      },
    ],
  });
  answerEveryRequest(faux, offlineResponder);
  return faux;
}
