import { retryAssistantCall, type UserMessage } from '@earendil-works/pi-ai';
import { SettingsManager } from '@earendil-works/pi-coding-agent';
import { ContentStore, readContentText } from '@repa/content';
import type { LearningContextSourceVersion } from '@repa/context';
import { OFFLINE_MODEL_ID, RepaError } from '@repa/protocol';
import type { ModelChoice } from '../models/index.js';
import { modelErrorOf } from '../models/index.js';
import {
  expandSourceFolders,
  type LearningContextSourceText,
  readLearningContextSources,
  SOURCE_TEXT_LIMIT,
} from './learning-context-sources.js';

/** One step of a learning-context build, for progress events. */
export interface BuildProgress {
  /** `reading` each source, asking the `model`, Pi's `retry` of that call, or `extracting` offline. */
  step: 'reading' | 'model' | 'retry' | 'extracting';
  /** One line for people. */
  message: string;
}

/** A source that did not fit the model's window: how much of it the model saw. */
export interface BuildCut {
  /** The source. */
  path: string;
  /** Characters the model was given. */
  keptChars: number;
  /** Characters the source has. */
  totalChars: number;
  /**
   * Why: `window` when the model's window held no more of it, `read-limit` when all that was
   * read fitted but a build reads at most the first 4 MiB of a source.
   */
  reason: 'window' | 'read-limit';
}

/** What {@link buildLearningContext} made (nothing is written). */
export interface BuiltLearningContext {
  /** The study context. */
  body: string;
  /** The sources, space-relative. */
  sources: string[];
  /** The version of each source the body was built from. */
  sourceVersions: LearningContextSourceVersion[];
  /** Sources cut to fit the model's window. */
  cut: BuildCut[];
  /** True when built offline by extraction (no language model). */
  extractive: boolean;
  /** `provider/id` of the model, or `repa-offline`. */
  model: string;
}

/** Options of {@link buildLearningContext}. */
export interface BuildLearningContextOptions {
  /** Space-relative paths of the documents to build from. */
  sources: readonly string[];
  /** What the learner wants the context to focus on. */
  instructions?: string | undefined;
  /** Cancels the build (`cancelled`). */
  signal?: AbortSignal | undefined;
  /** Told each step. */
  onProgress?: ((progress: BuildProgress) => void) | undefined;
  /** Repa's application directory: with it, `repa:material/<id>` sources are read (spec R15). */
  appDirectory?: string | undefined;
  /**
   * Pi's settings the build's retries follow (`retry`, as a run's): default Pi's own defaults.
   * The application reads them from Pi's configuration directory and a trusted space's `.pi/`.
   */
  piSettings?: SettingsManager | undefined;
  /** The connection of the model, named in its errors (e.g. `anthropic:auth-file`). */
  connection?: string | undefined;
}

const SYSTEM_PROMPT = `You write a study context for a learner from their documents. Write plain Markdown with
three sections: "## Working on" (what the learner is working on), "## Key ideas" (the key ideas,
each tied to the document it comes from) and "## Open questions". Be concise (at most about 600
words) and say only what the documents support.`;

/** Output tokens asked of the model; the rest of its window (less a margin) holds the documents. */
const OUTPUT_TOKENS = 2_000;
/** A conservative count of characters per token when fitting documents into a window. */
const CHARS_PER_TOKEN = 3;

/**
 * Builds a study context from documents of a space, writing nothing: one standalone call through
 * Pi's `ModelRuntime` (no session, no history) with Pi's retries and a run's error codes (spec
 * R71), its input bounded by the model's window (what was
 * cut is in `cut`); on `repa-offline` an extractive context (headings and first sentences), labelled
 * as such. Sources must exist inside the space (`not_found`, `path_outside_space`); a folder
 * stands for the readable documents below it.
 */
export async function buildLearningContext(
  space: string,
  choice: ModelChoice,
  options: BuildLearningContextOptions,
): Promise<BuiltLearningContext> {
  if (options.sources.length === 0) {
    throw new RepaError('invalid_request', 'Name at least one source to build the context from.');
  }
  const { sources, folders } = await expandSourceFolders(space, options.sources);
  const within = folders.length > 0 ? ` (from ${folders.map((f) => `${f}/`).join(', ')})` : '';
  options.onProgress?.({
    step: 'reading',
    message: `reading ${sources.length} source(s)${within}`,
  });
  const read = await readDocumentSources(
    space,
    options.appDirectory,
    await readLearningContextSources(space, sources),
  );
  for (const source of read) {
    // An identity was read through the content store, which refused it if it names nothing.
    if (!source.exists || (source.version.sha256 === null && !isIdentity(source.version.path))) {
      throw new RepaError(
        'not_found',
        `The source ${source.version.path} is not a file of the space.`,
        {
          fix: 'Name files of the space by their path relative to its root.',
          details: { path: source.version.path },
        },
      );
    }
  }
  throwIfAborted(options.signal);
  const base = {
    sources: read.map((source) => source.version.path),
    sourceVersions: read.map((source) => source.version),
  };
  if (choice.label === OFFLINE_MODEL_ID) {
    options.onProgress?.({
      step: 'extracting',
      message: 'extracting headings and first sentences',
    });
    return {
      ...base,
      body: extractiveBody(read),
      cut: [],
      extractive: true,
      model: OFFLINE_MODEL_ID,
    };
  }
  const budget = Math.max(
    4_000,
    (choice.model.contextWindow - Math.min(OUTPUT_TOKENS, choice.model.maxTokens) - 1_000) *
      CHARS_PER_TOKEN,
  );
  const { documents, cut } = fitDocuments(
    read.map((source) => ({
      path: source.version.path,
      text: source.text,
      // A source longer than what was read counts its bytes as its length (≥ its characters).
      total: source.truncated ? (source.version.size ?? source.text.length) : source.text.length,
    })),
    budget,
  );
  const request = [
    options.instructions ? `The learner asks: ${options.instructions}` : '',
    ...documents.map(
      (document) => `<document path="${document.path}">\n${document.text}\n</document>`,
    ),
    cut.length > 0
      ? `\n(Cut to fit: ${cut.map((item) => `${item.path} ${item.keptChars}/${item.totalChars} characters`).join(', ')}.)`
      : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
  options.onProgress?.({ step: 'model', message: `asking ${choice.label}` });
  const message: UserMessage = { role: 'user', content: request, timestamp: Date.now() };
  const settings = options.piSettings ?? SettingsManager.inMemory();
  const provider = settings.getProviderRetrySettings();
  let retries: { attempts: number; lastDelayMs: number } | undefined;
  // Pi's retries, as a run's: its policy, backoff and judgement of what is worth retrying.
  const answer = await retryAssistantCall(
    () =>
      choice.modelRuntime.completeSimple(
        choice.model,
        { systemPrompt: SYSTEM_PROMPT, messages: [message] },
        {
          maxTokens: Math.min(OUTPUT_TOKENS, choice.model.maxTokens),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(provider.maxRetries === undefined ? {} : { maxRetries: provider.maxRetries }),
          maxRetryDelayMs: provider.maxRetryDelayMs,
        },
      ),
    settings.getRetrySettings(),
    options.signal,
    {
      onRetryScheduled: (attempt, maxAttempts, delayMs, reason) => {
        retries = { attempts: attempt, lastDelayMs: delayMs };
        options.onProgress?.({
          step: 'retry',
          message: `Pi retries the model call (attempt ${attempt} of ${maxAttempts}) in ${delayMs} ms: ${reason}`,
        });
      },
    },
  );
  throwIfAborted(options.signal);
  if (answer.stopReason === 'aborted') throw cancelled();
  if (answer.stopReason === 'error') {
    const reason = answer.errorMessage ?? `${choice.label} failed.`;
    throw modelErrorOf(reason, choice.model, options.connection, retries);
  }
  const body = answer.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('')
    .trim();
  if (body === '') {
    throw new RepaError('model_error', `${choice.label} answered with no text.`, {
      details: { model: choice.label },
    });
  }
  return { ...base, body: `${body}\n`, cut, extractive: false, model: choice.label };
}

const isIdentity = (path: string) => path.startsWith('repa:');

/** A page or chapter marker line of a document's text (`[Page 3 of 12]`). */
const PART_MARKER = /^\[(Page|Chapter) \d+ of \d+[^\]\n]*\]$/gmu;

/**
 * The sources with the text the model reads of each (spec R60): a PDF, Word document, EPUB or web
 * page as its page-marked text (never its bytes), an identity (an outside material's
 * `repa:material/<id>`, a `repa:document/<id>`) as its text; `unsupported_content` for a binary
 * file no layer reads. Text files keep the text read.
 */
async function readDocumentSources(
  space: string,
  appDirectory: string | undefined,
  sources: LearningContextSourceText[],
): Promise<LearningContextSourceText[]> {
  let store: ContentStore | undefined;
  const out: LearningContextSourceText[] = [];
  for (const source of sources) {
    const { path } = source.version;
    const head = source.text.slice(0, 1024);
    const document =
      /\.(pdf|docx|epub|html?|xhtml)$/iu.test(path) ||
      head.startsWith('%PDF-') ||
      head.startsWith('PK\u0003\u0004') ||
      head.includes('\u0000');
    if (!source.exists || (!document && !isIdentity(path))) {
      out.push(source);
      continue;
    }
    store ??= await ContentStore.open({ root: space, ...(appDirectory ? { appDirectory } : {}) });
    const { text, truncated } = await readContentText(store, path, {
      maxChars: SOURCE_TEXT_LIMIT,
    });
    out.push({ ...source, text, truncated });
  }
  return out;
}

/** Gives each document an equal share of `budget` characters; shorter ones pass their rest on. */
function fitDocuments(
  documents: { path: string; text: string; total: number }[],
  budget: number,
): { documents: { path: string; text: string }[]; cut: BuildCut[] } {
  const order = documents.map((document, index) => ({ index, size: document.text.length }));
  order.sort((a, b) => a.size - b.size);
  const kept = new Array<number>(documents.length).fill(0);
  let left = budget;
  order.forEach((item, position) => {
    const share = Math.floor(left / (order.length - position));
    kept[item.index] = Math.min(item.size, share);
    left -= kept[item.index] ?? 0;
  });
  const cut: BuildCut[] = [];
  const fitted = documents.map((document, index) => {
    const keep = kept[index] ?? 0;
    if (keep >= document.total) return { path: document.path, text: document.text };
    const reason = keep < document.text.length ? 'window' : 'read-limit';
    cut.push({ path: document.path, keptChars: keep, totalChars: document.total, reason });
    return { path: document.path, text: document.text.slice(0, keep) };
  });
  return { documents: fitted, cut };
}

/** Headings and the first sentence of each paragraph of each source, labelled as extractive. */
function extractiveBody(
  sources: { version: { path: string }; text: string; truncated: boolean }[],
): string {
  const lines = [
    '(Extractive context built offline by repa-offline, without a language model: the headings and',
    'first sentences of each source. Build it with a model for a real study context.)',
    '',
  ];
  for (const source of sources) {
    lines.push(`## ${source.version.path}`);
    if (source.truncated) lines.push(`(only its first ${SOURCE_TEXT_LIMIT} bytes were read)`);
    // A document's page markers say where its text is, not what it says.
    for (const paragraph of source.text.replace(PART_MARKER, '').split(/\n\s*\n/)) {
      const text = paragraph.trim();
      if (text === '') continue;
      if (/^#{1,6}\s/.test(text)) {
        const [heading, ...rest] = text.split('\n');
        lines.push(`- ${heading?.replace(/^#+\s*/, '') ?? ''}`);
        const after = rest.join(' ').trim();
        if (after !== '') lines.push(`  - ${firstSentence(after)}`);
        continue;
      }
      lines.push(`  - ${firstSentence(text)}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const match = /^.*?[.!?](?=\s|$)/.exec(flat);
  const sentence = match ? match[0] : flat;
  return sentence.length > 300 ? `${sentence.slice(0, 300)}…` : sentence;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}

function cancelled(): RepaError {
  return new RepaError(
    'cancelled',
    'The learning-context build was cancelled; nothing was written.',
  );
}
