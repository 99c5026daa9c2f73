import {
  type AssistantMessage,
  fauxAssistantMessage,
  fauxToolCall,
  type ToolCall,
} from '@earendil-works/pi-ai';

/** A faux model reply of plain text. */
export const reply = (text: string) => fauxAssistantMessage(text);

/** A faux model reply that calls one tool. */
export const toolCall = (name: string, args: ToolCall['arguments']) =>
  fauxAssistantMessage([fauxToolCall(name, args)], { stopReason: 'toolUse' });

/** A faux step that waits until released, so the run stays active in Pi's streaming state. */
export function heldStep(reply: AssistantMessage) {
  let release = () => {};
  let reached = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  return {
    step: async () => {
      reached();
      await released;
      return reply;
    },
    arrived,
    release: () => release(),
  };
}
