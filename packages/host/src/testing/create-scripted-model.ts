import { existsSync } from 'node:fs';
import {
  type AssistantMessage,
  fauxAssistantMessage,
  fauxToolCall,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import type { ModelChoice } from '../models/index.js';
import { RESUME_NOTE } from '../sessions/index.js';
import { createFauxModel } from './create-faux-model.js';

function lastRequest(messages: TranscriptContext['messages']) {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const text =
      typeof message.content === 'string'
        ? message.content
        : message.content.map((block) => ('text' in block ? block.text : '')).join('');
    if (!text.includes('<learning-context>') && text !== RESUME_NOTE)
      return { text, after: messages.slice(index + 1) };
  }
  return { text: '', after: [] };
}

/** The text of the last user message of a request, whatever it is. */
function lastText(messages: TranscriptContext['messages']): string {
  const last = messages.findLast((message) => message.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((block) => ('text' in block ? block.text : '')).join('');
}

function hold(signal: AbortSignal | undefined): Promise<AssistantMessage> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  }).then(() => fauxAssistantMessage('stopped'));
}

/**
 * A faux model with a tiny script, for applications and daemons under test: `hold …` keeps the
 * run streaming until it is cancelled; `save NAME then hold` writes NAME through the `write` tool,
 * then holds; `wait for PATH` holds until the file PATH exists, then calls `ls` and answers
 * `ok: <the last user message>` (a steered one, say); `read PATH then …` reads PATH with the
 * `read` tool, then answers `ok: <text>` (citations of it checked against that reading); `fail …`
 * fails at the provider; anything else is answered `ok: <text>` at once.
 * `onRequest` is called for every model request; `holds: false` answers `hold …` requests at once
 * too (a restarted daemon that lets a resumed run finish).
 */
export function createScriptedModel(
  options: { onRequest?: () => void; holds?: boolean } = {},
): Promise<ModelChoice> {
  return createFauxModel(async (context, streamOptions) => {
    options.onRequest?.();
    const { text, after } = lastRequest(context.messages);
    const save = /^save (\S+) then hold/.exec(text);
    if (save?.[1]) {
      if (!after.some((message) => message.role === 'toolResult')) {
        return fauxAssistantMessage(
          [fauxToolCall('write', { path: save[1], content: 'saved before cancel\n' })],
          { stopReason: 'toolUse' },
        );
      }
      return hold(streamOptions?.signal);
    }
    if (text.startsWith('hold') && options.holds !== false) return hold(streamOptions?.signal);
    const wait = /^wait for (\S+)/.exec(text);
    if (wait?.[1]) {
      if (after.some((message) => message.role === 'toolResult')) {
        return fauxAssistantMessage(`ok: ${lastText(context.messages)}`);
      }
      // Held until the file exists, then a tool call: a turn boundary where steering arrives.
      while (!existsSync(wait[1]) && !streamOptions?.signal?.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return fauxAssistantMessage([fauxToolCall('ls', { path: '.' })], { stopReason: 'toolUse' });
    }
    const read = /^read (\S+) then /.exec(text);
    if (read?.[1] && !after.some((message) => message.role === 'toolResult')) {
      return fauxAssistantMessage([fauxToolCall('read', { path: read[1] })], {
        stopReason: 'toolUse',
      });
    }
    if (text.startsWith('fail')) {
      return fauxAssistantMessage('', { stopReason: 'error', errorMessage: `scripted: ${text}` });
    }
    return fauxAssistantMessage(`ok: ${text}`);
  });
}
