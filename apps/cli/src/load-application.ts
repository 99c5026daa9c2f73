/**
 * Imports `@repa/application` on first use: only `doctor` needs it, when no daemon runs, to read
 * Pi's configuration as a daemon would (which loads Pi too). What talks to a running daemon
 * (`daemon restart`, `web`) takes its helpers from `@repa/protocol/node` instead.
 */
export async function loadApplication(): Promise<typeof import('@repa/application')> {
  // node:sqlite (the run ledger) warns that it is experimental; the warning would only confuse users.
  const emitWarning = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('SQLite is an experimental feature')) return;
    (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
  }) as typeof process.emitWarning;
  process.env.PI_OFFLINE ??= '1';
  return import('@repa/application');
}
