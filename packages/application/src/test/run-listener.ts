import type { RunEvent } from '@repa/protocol';
import type { RepaApplication } from '../repa-application.js';
import type { ConnectionContext } from '../server/repa-handlers.js';

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
