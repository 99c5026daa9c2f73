import type { RunEvent, V1Params, V1Result } from '@repa/protocol';
import type { RepaApplication } from '../repa-application.js';
import type { ConnectionContext, RepaHandledMethod, RepaHandler } from '../server/repa-handlers.js';

/** A subscriber that records every run event the application sends it. */
export function listener(): {
  connection: ConnectionContext;
  events: RunEvent[];
  next: () => Promise<void>;
} {
  const events: RunEvent[] = [];
  let wake = () => {};
  const connection: ConnectionContext = {
    connectionId: 'test',
    transport: 'unix',
    notify: (_method, params) => {
      events.push((params as { event: RunEvent }).event);
      wake();
      return true;
    },
    onClose: () => () => {},
  };
  const next = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  return { connection, events, next };
}

/**
 * Waits until the run itself has ended (the ledger records its end before the final status event
 * is sent, which wakes this), then returns it as `run.get` reads it. The run's own status decides,
 * not any final event among `events`: a listener that submitted earlier runs holds theirs too.
 */
export async function ended(
  app: RepaApplication,
  runId: string,
  events: RunEvent[],
  next: () => Promise<void>,
) {
  const get = app.handlers()['run.get'];
  if (!get) throw new Error('run.get is not handled');
  for (;;) {
    const seen = events.length;
    const { run } = await get({ runId }, connectionOf(listener()));
    if (!['accepted', 'running'].includes(run.status)) return run;
    // Nothing awaits between this check and `next()`: an event cannot slip in unseen.
    if (events.length === seen) await next();
  }
}

export const connectionOf = (l: { connection: ConnectionContext }) => l.connection;

/** Answers one method through the application's handler, as a client's request reaches it. */
export async function request<M extends RepaHandledMethod>(
  app: RepaApplication,
  method: M,
  params: V1Params<M>,
): Promise<V1Result<M>> {
  const handler = app.handlers()[method] as RepaHandler<M> | undefined;
  if (!handler) throw new Error(`${method} is not handled`);
  return handler(params, connectionOf(listener()));
}
