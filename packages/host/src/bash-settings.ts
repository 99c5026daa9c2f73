import type { ToolDefinition } from '@earendil-works/pi-coding-agent';
import {
  checkSandbox,
  createSandboxedBashTool,
  type SandboxedBashToolOptions,
} from '@repa/content/tools';
import { RepaError, type V1Result } from '@repa/protocol';

/** `tools.bashTimeoutSeconds` when a run carries none (runs recorded before the item existed). */
export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;

/**
 * One host's sandboxed `bash` tool (spec R74): the time limit of the current run's settings, a
 * check that the sandbox works before a run may use it, and disposal, which stops every command.
 */
export class HostBashTool {
  /** The wall-clock limit of one command in the current run, in seconds. */
  timeoutSeconds = DEFAULT_BASH_TIMEOUT_SECONDS;
  readonly #disposed = new AbortController();

  /** Pi's definition of the tool, registered with the session (active only when allowed). */
  tool(
    options: Omit<SandboxedBashToolOptions, 'timeoutSeconds' | 'disposeSignal'>,
  ): ToolDefinition {
    return createSandboxedBashTool({
      ...options,
      timeoutSeconds: () => this.timeoutSeconds,
      disposeSignal: this.#disposed.signal,
    });
  }

  /** Throws `sandbox_unavailable` unless commands can run sandboxed on this machine. */
  async check(): Promise<void> {
    await checkSandbox();
  }

  /** Stops every running command (SIGTERM, then SIGKILL after the grace period). */
  dispose(): void {
    this.#disposed.abort();
  }
}

/**
 * Whether the `bash` tool's commands can run sandboxed on this machine, as a run would find it
 * (the same check), for `doctor`: the `bwrap` used, or found when it failed, and why not.
 */
export async function commandSandboxStatus(
  options: { path?: string | undefined } = {},
): Promise<NonNullable<V1Result<'doctor'>['sandbox']>> {
  try {
    const { bwrap } = await checkSandbox(options);
    return { bwrap, ready: true };
  } catch (error) {
    const failure = RepaError.fromUnknown(error);
    const bwrap = failure.details?.bwrap;
    return {
      bwrap: typeof bwrap === 'string' ? bwrap : null,
      ready: false,
      error: failure.toWire(),
    };
  }
}
