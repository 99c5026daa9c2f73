import type { SettingsStore } from '@repa/settings';
import type { ContextBuilds } from '../context-builds.js';
import type { ContextWrites } from '../context-writes.js';
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
  /** The real root of a space a client named (`resolveSpace`), opened (admitted) the first time. */
  space: (root: string) => Promise<string>;
  /**
   * The real root of a folder a query names (`run.list`, `models.next`, `doctor`, …;
   * `resolveFolder`), checked as {@link space} checks it but not opened: it joins no list and gets
   * no trust.
   */
  folder: (root: string) => Promise<string>;
  ledger: RunLedger;
  runs: RunScheduler;
  settings: SettingsStore;
  trust: SpaceTrust;
  hosts: SessionHosts;
  contextWrites: ContextWrites;
  contextBuilds: ContextBuilds;
  logins: Logins;
}
