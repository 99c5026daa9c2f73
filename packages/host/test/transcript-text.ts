import type { TranscriptContext } from '@earendil-works/pi-ai';

/** One message of a request the faux provider received. */
export type Message = TranscriptContext['messages'][number];

/** The text of a request message (system messages: none). */
export function textOf(message: Message): string {
  if (message.role === 'system') return '';
  const content = (message as { content: unknown }).content;
  if (typeof content === 'string') return content;
  return (content as { type: string; text?: string }[])
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
}

/** The text of each user message of a request, in order. */
export const userTexts = (request: TranscriptContext) =>
  request.messages.filter((message) => message.role === 'user').map(textOf);

/** The conversation messages of a request (no system messages), as role and text. */
export function turns(request: TranscriptContext | undefined): { role: string; text: string }[] {
  return (request?.messages ?? [])
    .filter((message) => message.role !== 'system')
    .map((message) => ({ role: message.role, text: textOf(message) }));
}
