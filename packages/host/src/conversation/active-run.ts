import type { AgentSession, AgentSessionEvent } from '@earendil-works/pi-coding-agent';
import type { LearningContextView } from '@repa/context';
import type { AssembledSystemPrompt, PromptStudyMode } from '@repa/prompt';
import type {
  PromptSettings,
  PromptSettingsSources,
  RestrictedItem,
  RunEvent,
  SaveReceipt,
} from '@repa/protocol';
import { runEventsFromPi } from '../run-events.js';
import type { SendOptions } from './host-options.js';
import type { RunDeliveries } from './pi-queues.js';
import { RunApprovals } from './run-approvals.js';
import { addUsage, emptyUsage, type RunTally } from './run-outcome.js';

/** What the host knows of the run it is running. */
export interface ActiveRun extends RunTally {
  settings: PromptSettings;
  restricted: RestrictedItem[];
  sources: PromptSettingsSources | undefined;
  /** The run's `study.mode` and its source: the `tutor` section is in only in tutor mode. */
  study: PromptStudyMode;
  view: LearningContextView | null;
  /** The study summary the run gives with its learning context (null: none, or turned off). */
  studySummary: string | null;
  prompt: AssembledSystemPrompt | undefined;
  receipts: SaveReceipt[];
  emit: (event: RunEvent) => void;
  runId: string | undefined;
  /** Saving tool calls so far (numbers the operation ids). */
  saves: number;
  /** Steer and follow-up messages handed to Pi and not yet seen reaching the model. */
  deliveries: RunDeliveries;
  /** The saves and commands waiting for the learner (`tools.edits` `ask`). */
  approvals: RunApprovals;
  /** The run's `documents.ocrLanguages` (absent on runs recorded before it: the default). */
  ocrLanguages: readonly string[] | undefined;
}

/** A run's state as it starts: nothing read, saved or delivered yet. */
export function startActiveRun(
  settings: PromptSettings,
  options: SendOptions,
  deliveries: RunDeliveries,
): ActiveRun {
  const emit = options.onEvent ?? (() => {});
  return {
    settings,
    restricted: [...(options.restricted ?? [])],
    sources: options.sources,
    study: {
      mode: options.modelSettings?.studyMode ?? 'answer',
      source: options.modelSources?.studyMode,
    },
    cancelRequested: false,
    view: null,
    studySummary: null,
    prompt: undefined,
    receipts: [],
    emit,
    runId: options.runId,
    saves: 0,
    usage: emptyUsage(),
    deliveries,
    approvals: new RunApprovals(options.modelSettings?.edits, emit),
    ocrLanguages: options.modelSettings?.ocrLanguages,
  };
}

/** One event of Pi's loop during a run: usage, retries, receipts, and the run's own events. */
export function onPiEvent(session: AgentSession, run: ActiveRun, event: AgentSessionEvent): void {
  // A cancel that arrived before Pi's loop started streaming had nothing to abort yet.
  if (event.type === 'agent_start' && run.cancelRequested) void session.abort();
  if (event.type === 'message_end' && event.message.role === 'assistant') {
    addUsage(run.usage, event.message.usage);
  }
  for (const runEvent of runEventsFromPi(event)) {
    if (runEvent.type === 'tool-end' && runEvent.receipts) run.receipts.push(...runEvent.receipts);
    if (runEvent.type === 'retry') {
      run.retries = { attempts: runEvent.attempt, lastDelayMs: runEvent.delayMs };
    }
    run.emit(runEvent);
  }
}
