import { sessionEntryToContextMessages } from '@earendil-works/pi-coding-agent';
import { z } from 'zod';
import type { LearningContextView } from './learning-context-file.js';
import type {
  AgentMessage,
  CustomAgentMessage,
  CustomMessageContent,
  SessionEntry,
} from './pi-types.js';

/** The `customType` of Repa's learning-context snapshot (`custom_message` entries, spec R40). */
export const LEARNING_CONTEXT_CUSTOM_TYPE = 'repa.learning-context';

/** What a snapshot's `details` hold (never sent to the model). */
export interface LearningContextSnapshotDetails {
  /** The learning-context revision the snapshot gave the model. */
  revision: string;
  /** The full body. */
  body: string;
  /** The sources the body was built from. */
  sources: string[];
  /** True when `content` was written as the full rendering of `body` (spec R40). */
  complete: boolean;
}

const detailsSchema = z.looseObject({
  revision: z.string(),
  body: z.string(),
  sources: z.array(z.string()),
  complete: z.boolean(),
});

/** A recognised snapshot and whether it can be trusted as complete background. */
export interface LearningContextSnapshotInfo {
  /** The revision in `details`, when they parse. */
  revision: string | null;
  /** The body in `details`, when they parse. */
  body: string | null;
  /** The sources in `details`, when they parse. */
  sources: string[];
  /**
   * True only when `details` parse, say `complete: true`, and the model-visible content still
   * equals what that body renders to. A truncated or rewritten snapshot is never complete (R46).
   */
  complete: boolean;
}

/** The model-facing text of a snapshot of `view`. Contract: a pure function of the view. */
export function renderLearningContext(view: LearningContextView): string {
  const sources = view.sources.length > 0 ? view.sources.join(', ') : '(none)';
  return [
    `The space's current learning context (revision ${view.revision}; sources: ${sources}):`,
    '<learning-context>',
    view.body,
    '</learning-context>',
  ].join('\n');
}

/** True for a `custom` message of Repa's snapshot type. */
export function isSnapshotMessage(message: AgentMessage): message is CustomAgentMessage {
  return message.role === 'custom' && message.customType === LEARNING_CONTEXT_CUSTOM_TYPE;
}

/**
 * Inspects a snapshot message (as projected, i.e. after Pi's `context_edit`s) or raw session
 * entry. Returns `null` when it is not a Repa learning-context snapshot.
 */
export function inspectLearningContextSnapshot(
  source: AgentMessage | SessionEntry,
): LearningContextSnapshotInfo | null {
  const message = 'role' in source ? source : snapshotMessageOf(source);
  if (!message || !isSnapshotMessage(message)) return null;
  const parsed = detailsSchema.safeParse(message.details);
  if (!parsed.success) return { revision: null, body: null, sources: [], complete: false };
  const { revision, body, sources, complete } = parsed.data;
  const text = textOf(message.content);
  return {
    revision,
    body,
    sources,
    complete: complete && text === renderLearningContext({ revision, body, sources }),
  };
}

/** The snapshot message a raw entry contributes without edits, if it is a snapshot entry. */
export function snapshotMessageOf(entry: SessionEntry): CustomAgentMessage | undefined {
  if (entry.type !== 'custom_message' && entry.type !== 'message') return undefined;
  return sessionEntryToContextMessages(entry).find(isSnapshotMessage);
}

/** The `details` written with a new snapshot of `view`. */
export function snapshotDetails(view: LearningContextView): LearningContextSnapshotDetails {
  return { revision: view.revision, body: view.body, sources: [...view.sources], complete: true };
}

/** The text of custom content; `null` when it holds anything but text blocks. */
function textOf(content: CustomMessageContent): string | null {
  if (typeof content === 'string') return content;
  let text = '';
  for (const block of content) {
    if (block.type !== 'text') return null;
    text += block.text;
  }
  return text;
}
