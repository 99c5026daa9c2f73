import { OFFLINE_MODEL_ID } from '@repa/protocol';

/** The most requests, and answers, a summary lists (the newest kept). */
const MAX_ITEMS = 12;
/** The most characters kept of each request or answer. */
const MAX_ITEM_CHARS = 200;

// Pi's summary requests: the history (`<conversation>` …, then its prompt) and the start of a turn
// cut by the kept part (`# Conversation` … `# Instructions`).
const HISTORY = /^<conversation>\n([\s\S]*?)\n<\/conversation>\n\n([\s\S]*)$/;
const TURN_PREFIX = /^# Conversation\n([\s\S]*?)\n\n# Instructions\n/;
const PREVIOUS = /<previous-summary>\n([\s\S]*?)\n<\/previous-summary>/;
const FOCUS = /\n\nAdditional focus: ([\s\S]*)$/;
// Automatic messages of a conversation, not the learner's requests.
const AUTOMATIC = /^(The space's current learning context|Files you read|Continue from where)/;

/** One line of at most {@link MAX_ITEM_CHARS} characters. */
function line(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_ITEM_CHARS ? `${flat.slice(0, MAX_ITEM_CHARS - 1)}…` : flat;
}

/** The parts of Pi's serialized conversation (`[User]: …`, `[Assistant]: …`) by their label. */
function parts(conversation: string): { label: string; text: string }[] {
  return conversation.split(/\n\n(?=\[[A-Za-z ]+\]: )/).flatMap((part) => {
    const found = /^\[([A-Za-z ]+)\]: ([\s\S]*)$/.exec(part);
    return found ? [{ label: found[1] as string, text: found[2] as string }] : [];
  });
}

/**
 * The offline model's answer to one of Pi's summary requests, or undefined for any other request:
 * made without a language model, deterministic, from the conversation's own words — the learner's
 * requests, the first line of each answer, the earlier summary's first line and the focus asked
 * for (Pi's custom instructions).
 */
export function offlineSummary(request: string): string | undefined {
  const history = HISTORY.exec(request);
  const prefix = history ? undefined : TURN_PREFIX.exec(request);
  const conversation = history?.[1] ?? prefix?.[1];
  if (conversation === undefined) return undefined;
  const said = parts(conversation);
  const requests = said
    .filter((part) => part.label === 'User' && !AUTOMATIC.test(part.text))
    .map((part) => `- ${line(part.text)}`)
    .slice(-MAX_ITEMS);
  const answers = said
    .filter((part) => part.label === 'Assistant')
    .map((part) => `- ${line(part.text.split('\n')[0] ?? '')}`)
    .slice(-MAX_ITEMS);
  const previous = PREVIOUS.exec(request)?.[1];
  const focus = history ? FOCUS.exec(history[2] ?? '')?.[1] : undefined;
  return [
    `[${OFFLINE_MODEL_ID}] ${prefix ? 'The start of the current turn' : 'The conversation so far'}, summarised without a language model: the requests and the first line of each answer.`,
    ...(previous ? ['', '## Earlier summary', line(previous)] : []),
    ...(focus ? ['', '## Focus asked for', line(focus)] : []),
    '',
    '## Requests',
    ...(requests.length > 0 ? requests : ['- (none)']),
    '',
    '## Answers',
    ...(answers.length > 0 ? answers : ['- (none)']),
  ].join('\n');
}
