import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@earendil-works/pi-coding-agent';
import {
  appendLearningContextSnapshot,
  decideLearningContextSnapshot,
  projectSessionContext,
  readLearningContext,
  writeLearningContext,
} from '@repa/context';

const space = mkdtempSync(join(tmpdir(), 'repa-context-example-'));
await writeLearningContext(space, { body: 'The learner studies cell biology.', sources: [] });
const view = await readLearningContext(space); // { revision, body, sources }, or null without one

// A Pi session of the space; before each run, a snapshot when the context changed (spec R32).
const session = SessionManager.inMemory(space);
const decision = decideLearningContextSnapshot(session, view, { learningContext: true });
if (decision.append && view) appendLearningContextSnapshot(session, view);
session.appendMessage({ role: 'user', content: 'What is a ribosome?', timestamp: Date.now() });

// What the model is shown: Pi's projection of the session with Repa's rules (spec R41).
const { messages } = projectSessionContext(session, { learningContext: true });
console.log(`learning context revision ${view?.revision}: ${decision.reason}`);
console.log(
  `the model is shown ${messages.length} messages: ${messages.map((m) => m.role).join(', ')}`,
);
