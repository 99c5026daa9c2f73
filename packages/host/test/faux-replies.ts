import { fauxAssistantMessage, fauxToolCall, type ToolCall } from '@earendil-works/pi-ai';

/** A faux model reply of plain text. */
export const reply = (text: string) => fauxAssistantMessage(text);

/** A faux model reply that calls one tool. */
export const toolCall = (name: string, args: ToolCall['arguments']) =>
  fauxAssistantMessage([fauxToolCall(name, args)], { stopReason: 'toolUse' });
