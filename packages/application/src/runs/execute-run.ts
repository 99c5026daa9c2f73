import type { PiConversationHost, RunOutcome } from '@repa/host';
import { RepaError, type RunEvent, type RunInfo, type WireError } from '@repa/protocol';
import type { SettingsStore } from '@repa/settings';
import type { SessionHosts } from '../session-hosts.js';
import type { SpaceTrust } from '../space-trust.js';
import { approvalRecorder } from './run-approvals.js';
import type { RunLedger } from './run-ledger.js';

/** What running an accepted run needs. */
export interface RunExecution {
  ledger: RunLedger;
  settings: SettingsStore;
  trust: SpaceTrust;
  hosts: SessionHosts;
  /** Sends an event of the run to its subscribers. */
  emit: (run: RunInfo, event: RunEvent) => void;
  /** Receives one line per failed run (the daemon log). */
  log: (line: string) => void;
}

/**
 * Runs an accepted run on its session's host, opened under the space's trust, and records how it
 * ended (spec R23: with the settings decided at acceptance). A run cancelled before it started is
 * left as it is; a resumption goes to the host's `resume` (spec R73).
 */
export async function executeRun(run: RunInfo, parts: RunExecution): Promise<void> {
  const { ledger, trust } = parts;
  const record = approvalRecorder(ledger, run.runId);
  const emit = (event: RunEvent) => {
    record(event);
    parts.emit(run, event);
  };
  // Trust is read before the run counts as running: from there on a cancel must reach the host.
  const trusted = await trust.isTrusted(run.space);
  let host: PiConversationHost;
  try {
    host = await parts.hosts.host(run.space, run.sessionId, trusted, run.model);
  } catch (error) {
    const wire = RepaError.fromUnknown(error).toWire();
    ledger.finish(run.runId, { status: 'failed', error: wire });
    logFailure(parts.log, run.runId, wire);
    emit({ type: 'status', status: 'failed', error: wire });
    return;
  }
  const restricted = await trust.restricted(run.space, parts.settings);
  if (ledger.getRun(run.runId).status !== 'accepted') return; // Cancelled before start.
  ledger.markRunning(run.runId, true);
  emit({ type: 'status', status: 'running' });
  const input = ledger.inputOf(run.runId);
  const options = {
    onEvent: emit,
    runId: run.runId,
    knownContexts: trust.known(run.space).contexts,
    restricted,
    sources: run.settingsSources,
    // The model and thinking level decided at acceptance (spec R71, R72).
    modelSettings: run.modelSettings && {
      ...run.modelSettings,
      model: run.model ?? run.modelSettings.model,
      thinkingLevel: run.thinkingLevel ?? run.modelSettings.thinkingLevel,
    },
    modelSources: run.modelSettingsSources,
    ...(run.connection ? { connection: run.connection } : {}),
  };
  const inputs = { ...options, images: input.images, attachments: input.attachments };
  // A resumption continues the history (whose user message carries the images and documents),
  // or sends the original's request when it never entered it (spec R73).
  const outcome: RunOutcome = await (run.resumeOf
    ? host.resume(
        { runId: run.resumeOf, text: input.text, marked: ledger.historyMarked(run.resumeOf) },
        run.promptSettings,
        inputs,
      )
    : host.send(input.text, run.promptSettings, inputs)
  ).catch((error: unknown) => ({
    status: 'failed' as const,
    error: RepaError.fromUnknown(error).toWire(),
  }));
  if (outcome.attachedSources) ledger.recordAttachedSources(run.runId, outcome.attachedSources);
  const finished = ledger.finish(run.runId, {
    status: outcome.status,
    promptSections: outcome.prompt?.report,
    error: outcome.error,
    output: outcome.output,
    usage: outcome.usage,
    model: outcome.model,
    connection: outcome.connection,
    restricted: outcome.restricted,
    citations: outcome.citations,
  });
  if (finished.status === 'failed' && finished.error) {
    logFailure(parts.log, run.runId, finished.error);
  }
  const { citations } = finished;
  emit({
    type: 'status',
    status: finished.status,
    error: finished.error,
    ...(citations ? { citations } : {}),
  });
}

/** Writes a failed run to the daemon log: time, run id, code, message and the error's facts. */
function logFailure(log: (line: string) => void, runId: string, error: WireError): void {
  const details = error.details === undefined ? '' : ` ${JSON.stringify(error.details)}`;
  log(
    `${new Date().toISOString()} run ${runId} failed: ${error.code}: ${error.message}${details}\n`,
  );
}
