import type { Model } from '@earendil-works/pi-ai';
import type { AgentSession, ModelRuntime } from '@earendil-works/pi-coding-agent';
import type { AssembledSystemPrompt } from '@repa/prompt';
import {
  type AttachedSource,
  type Citation,
  OFFLINE_MODEL_ID,
  RepaError,
  type RestrictedItem,
  type RunUsage,
  type WireError,
} from '@repa/protocol';
import { connectionOf, modelErrorOf } from '../models/index.js';

/** How a run ended. */
export interface RunOutcome {
  /** Final status. */
  status: 'succeeded' | 'failed' | 'cancelled' | 'interrupted';
  /** The last assistant text. */
  output?: string;
  /** Why it failed or was cancelled. */
  error?: WireError;
  /** What the model was told, section by section (absent when the run never started). */
  prompt?: AssembledSystemPrompt;
  /** The provider's token usage and cost of the run's model calls (absent when none was made). */
  usage?: RunUsage;
  /** The model the run talked to (`provider/id`), once the run's settings were applied. */
  model?: string;
  /** The connection it used: provider and credential source, e.g. `anthropic:environment`. */
  connection?: string;
  /** The final answer's citations as checked when the run ended (absent when it has none). */
  citations?: Citation[];
  /** The attached documents as the run read them. */
  attachedSources?: AttachedSource[];
  /** What the space's restriction left out of the run (absent when the space is trusted). */
  restricted?: RestrictedItem[];
}

/** What a run's end is decided from, besides the session. */
export interface RunTally {
  /** A cancel was asked for. */
  cancelRequested: boolean;
  /** The cancel came from the daemon stopping while the learner was asked: the run is resumable. */
  interrupted?: boolean;
  /** The provider's usage summed over the run's model calls. */
  usage: RunUsage;
  /** Pi's automatic retries of the run's model calls so far, and the last delay. */
  retries?: { attempts: number; lastDelayMs: number };
}

/** A run's usage before its first model call. */
export function emptyUsage(): RunUsage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, calls: 0 };
}

/** The outcome of a cancelled run. */
export function cancelledOutcome(
  prompt: AssembledSystemPrompt | undefined,
  output?: string,
): RunOutcome {
  return {
    status: 'cancelled',
    error: new RepaError('cancelled', 'The run was cancelled.').toWire(),
    ...(prompt ? { prompt } : {}),
    ...(output ? { output } : {}),
  };
}

/**
 * How Pi's loop ended the run: cancelled, failed with the provider's error as a Repa code, or
 * succeeded with the last assistant text.
 */
export function outcomeOf(
  session: AgentSession,
  prompt: AssembledSystemPrompt,
  run: RunTally,
  fallback: { model: Model<string>; modelRuntime: ModelRuntime; connection?: string | undefined },
): RunOutcome {
  const last = [...session.messages].reverse().find((message) => message.role === 'assistant');
  const output = session.getLastAssistantText();
  // A cancel that arrives between tool rounds ends Pi's loop without an aborted reply.
  if (run.cancelRequested || (last && 'stopReason' in last && last.stopReason === 'aborted')) {
    return cancelledOutcome(prompt, output);
  }
  if (last && 'stopReason' in last && last.stopReason === 'error') {
    const message = ('errorMessage' in last && last.errorMessage) || 'The model request failed.';
    const model = (session.model ?? fallback.model) as Model<string>;
    const connection = connectionOf(fallback.modelRuntime, model.provider) ?? fallback.connection;
    return {
      status: 'failed',
      error: modelErrorOf(message, model, connection, run.retries).toWire(),
      prompt,
    };
  }
  return { status: 'succeeded', prompt, ...(output ? { output } : {}) };
}

/**
 * The outcome with the run's model and usage, when a provider call was made (R47: Pi's window
 * estimate). The offline responder is no provider: its runs report no usage and no connection.
 */
export function withUsage(
  outcome: RunOutcome,
  session: AgentSession,
  modelRuntime: ModelRuntime,
  run: RunTally,
): RunOutcome {
  if (run.interrupted && outcome.status === 'cancelled') {
    const error = new RepaError(
      'interrupted',
      'The daemon stopped while the run waited for your approval; nothing of that change was written.',
      { fix: 'Resume the run (repa runs resume) to be asked again, or retry it.' },
    );
    outcome = { ...outcome, status: 'interrupted', error: error.toWire() };
  }
  const model = session.model;
  const offline = model?.provider === OFFLINE_MODEL_ID;
  if (model) {
    const connection = offline ? undefined : connectionOf(modelRuntime, model.provider);
    outcome = {
      ...outcome,
      model: offline ? OFFLINE_MODEL_ID : `${model.provider}/${model.id}`,
      ...(connection ? { connection } : {}),
    };
  }
  if (run.usage.calls === 0 || offline) return outcome;
  const context = session.getContextUsage();
  const usage: RunUsage = {
    ...run.usage,
    ...(context?.tokens == null ? {} : { contextTokensEstimate: context.tokens }),
    ...(context ? { contextWindow: context.contextWindow } : {}),
  };
  return { ...outcome, usage };
}

/** Adds one Pi assistant message's provider usage to the run's sum. */
export function addUsage(
  sum: RunUsage,
  usage:
    | {
        input: number;
        output: number;
        cacheRead: number;
        cacheWrite: number;
        totalTokens: number;
        cost?: { total: number };
      }
    | undefined,
): void {
  sum.calls += 1;
  if (!usage) return;
  sum.input += usage.input;
  sum.output += usage.output;
  sum.cacheRead += usage.cacheRead;
  sum.cacheWrite += usage.cacheWrite;
  sum.totalTokens += usage.totalTokens;
  // Pi reports 0 when it knows no price for the model: no cost is claimed then.
  if (usage.cost && usage.cost.total > 0) sum.cost = (sum.cost ?? 0) + usage.cost.total;
}
