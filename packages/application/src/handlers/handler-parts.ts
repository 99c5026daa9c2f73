import type { SettingsStore } from '@repa/settings';
import type { ContextBuilds } from '../context-builds.js';
import type { ContextWrites } from '../context-writes.js';
import type { FolderGate } from '../folder-gate.js';
import type { Logins } from '../logins.js';
import type { ModelChoices } from '../model-choices.js';
import type { RunLedger } from '../runs/run-ledger.js';
import type { RunScheduler } from '../runs/run-scheduler.js';
import type { SessionHosts } from '../session-hosts.js';
import type { SpaceTrust } from '../space-trust.js';

/** The parts of one application that the v1 handlers answer from. */
export interface HandlerParts {
  /** Repa's application directory (settings, the ledger, the grants of outside materials). */
  appDirectory: string;
  /** Pi's configuration directory; undefined: Pi's own. */
  agentDir: string | undefined;
  /** Pi's models of this daemon and the decision of a run's model (spec R71). */
  models: ModelChoices;
  /** When the application opened (the daemon's start, for `doctor`). */
  startedAt: string;
  /**
   * Where the folders params name are reached: every handler gets its params with the folder
   * already resolved (and opened, or not) as `method-folders.ts` says; the gate itself only
   * answers whether the home rule hides a listed space.
   */
  gate: FolderGate;
  ledger: RunLedger;
  runs: RunScheduler;
  settings: SettingsStore;
  trust: SpaceTrust;
  hosts: SessionHosts;
  contextWrites: ContextWrites;
  contextBuilds: ContextBuilds;
  logins: Logins;
}
