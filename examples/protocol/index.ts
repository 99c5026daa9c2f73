// A page's use of @repa/protocol (bundle it for the browser: `npm run build`). Its main entry has
// no Node built-in; a page reaches the daemon with webSocketTransport(url) (`repa web` serves it).
import { createRepaClient, RepaError, type RepaTransport } from '@repa/protocol';

// A transport whose daemon is not there, as a page sees it while `repa daemon` is stopped.
const unreachable = (): RepaTransport => ({
  start: () => Promise.reject(new RepaError('daemon_unavailable', 'No daemon answers.')),
  send: () => {},
  close: () => {},
});

async function main() {
  const client = createRepaClient(unreachable, {
    client: { name: 'my-page', version: '1.0.0' },
    reconnectAttempts: 1,
  });
  try {
    await client.request('session.list', { space: '/home/me/biology' });
  } catch (error) {
    if (!(error instanceof RepaError)) throw error;
    console.log(`${error.code}: ${error.message}`); // a stable code, and a fix to show the learner
    console.log(`fix: ${error.fix}`);
  } finally {
    await client.close();
  }
}

main().then(
  () => console.log('done'),
  (error) => console.error(error),
);
