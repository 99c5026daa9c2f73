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

/** Waits for the run's final status event, then reads the run back from the ledger. */
export async function ended(
  app: RepaApplication,
  runId: string,
  events: RunEvent[],
  next: () => Promise<void>,
) {
  const isEnd = (event: RunEvent) =>
    event.type === 'status' && !['accepted', 'running'].includes(event.status);
  while (!events.some(isEnd)) await next();
  const got = await app.handlers()['run.get']?.({ runId }, connectionOf(listener()));
  if (!got) throw new Error('run.get is not handled');
  return got.run;
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
