import type { ModelChoice } from '@repa/host';

/** Options of {@link RepaApplication.open}. */
export interface RepaApplicationOptions {
  /** Repa's application directory: settings, grants, the run ledger. */
  appDirectory: string;
  /** Pi's configuration directory (models, auth, Pi settings). Default Pi's own (`~/.pi/agent`). */
  agentDir?: string;
  /**
   * The daemon's `--model` (`provider/id` or `repa-offline`): the model of a run no settings level
   * chooses one for. Default: Pi's own default among the models with credentials at the run's
   * acceptance, else `repa-offline` (spec R71).
   */
  daemonModel?: string | undefined;
  /**
   * A ready model whose Pi runtime stands in for Pi's configuration (tests and embedders): runs
   * use it unless a level names another model that runtime knows (or `repa-offline`).
   */
  model?: ModelChoice;
  /**
   * Trust every space (for embedders that vet their spaces themselves). Default false: a space is
   * trusted when the learner trusted it (`space.trust`) or Repa made it a space from a plain
   * folder (spec R13).
   */
  trustEverySpace?: boolean;
  /**
   * Test hooks handed as-is to every session's content store (through `PiConversationHost.open`):
   * `step` runs after each named save step and may pause it.
   * @internal
   */
  contentHooks?: {
    step?(step: string, info: { operationId: string; index?: number }): void | Promise<void>;
  };
  /**
   * Test seam handed as-is to every session's host: reads the learning context at run start.
   * @internal
   */
  learningContextReader?: (
    space: string,
  ) => Promise<{ revision: string; body: string; sources: string[] } | null>;
  /** Receives one line per failed run (the daemon log). Default: standard error. */
  log?: (line: string) => void;
}
