// The scripted conversation every side of the turn benchmark holds: 5 turns, each a read, an edit
// and a short answer, on Pi's faux provider; and the check that a side really held it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fauxAssistantMessage, fauxToolCall } from '@earendil-works/pi-ai';

export const TURNS = 5;
/** Model requests per conversation: per turn the read, the edit and the answer. */
export const REQUESTS = TURNS * 3;
export const REPLY_DELAY_MS = 50;
export const FILES = Array.from({ length: TURNS }, (_, index) => `notes/topic-${index + 1}.md`);

function fileText(index) {
  const lines = [`# Topic ${index + 1}`, ''];
  for (let line = 0; line < 40; line++) {
    lines.push(`Line ${line} of topic ${index + 1}: photosynthesis turns light into sugar.`);
  }
  lines.push('', 'Status: draft', '');
  return lines.join('\n');
}

/** The faux replies of one conversation: per turn a read, an edit, then a short answer. */
export function script(delayMs) {
  const steps = [];
  for (const [index, path] of FILES.entries()) {
    steps.push(
      fauxAssistantMessage([fauxToolCall('read', { path })], { stopReason: 'toolUse' }),
      fauxAssistantMessage(
        [
          fauxToolCall('edit', {
            path,
            edits: [{ oldText: 'Status: draft', newText: `Status: reviewed in turn ${index + 1}` }],
          }),
        ],
        { stopReason: 'toolUse' },
      ),
      fauxAssistantMessage(`Marked ${path} as reviewed.`),
    );
  }
  if (delayMs === 0) return steps;
  // A function step holds the reply back, as a real model's latency would (both sides alike).
  return steps.map((message) => () => delay(delayMs).then(() => message));
}

/** Writes the conversation's files into `space` afresh. */
export function resetFiles(space) {
  for (const [index, path] of FILES.entries()) {
    mkdirSync(join(space, 'notes'), { recursive: true });
    writeFileSync(join(space, path), fileText(index));
  }
}

/** Every side must really have edited every file, or the comparison means nothing. */
export function check(text, space, who) {
  if (!text?.startsWith('Marked notes/topic-5.md')) {
    throw new Error(`${who}: the scripted conversation did not finish (last reply: ${text})`);
  }
  for (const [index, path] of FILES.entries()) {
    const saved = readFileSync(join(space, path), 'utf8');
    if (!saved.includes(`Status: reviewed in turn ${index + 1}`)) {
      throw new Error(`${who}: ${path} was not edited`);
    }
  }
}
