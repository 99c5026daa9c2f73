import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SettingsManager } from '@earendil-works/pi-coding-agent';
import { type EndpointReply, type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import { afterEach } from 'vitest';
import { PiConversationHost } from '../src/conversation/pi-conversation-host.js';
import { chooseModel } from '../src/models/choose-model.js';

/** Pi's settings for a host (compaction is off unless they say otherwise). */
type PiSettings = Parameters<typeof SettingsManager.inMemory>[0];

/**
 * A test file's hosts on `test/plain` of a local OpenAI-compatible endpoint: the function returned
 * starts an endpoint answering `replies` (with `refused`, Pi is pointed at a port that refuses
 * instead) and opens a host in a fresh space; each endpoint is closed after its test.
 */
export function endpointHosts(): (
  replies: EndpointReply[],
  options?: { refused?: boolean; piSettings?: PiSettings },
) => Promise<{ host: PiConversationHost; endpoint: OpenAiEndpoint }> {
  const endpoints: OpenAiEndpoint[] = [];
  afterEach(async () => {
    await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
  });
  return async (replies, { refused = false, piSettings = {} } = {}) => {
    const base = mkdtempSync(join(tmpdir(), 'repa-endpoint-host-'));
    const space = join(base, 'space');
    const agentDir = join(base, 'agent');
    mkdirSync(space);
    mkdirSync(agentDir);
    const endpoint = await startOpenAiEndpoint(replies);
    endpoints.push(endpoint);
    if (refused) {
      // Port 9 (discard) is privileged and nothing of the tests listens there: refused. A port that
      // was just free and closed again could be taken meanwhile by another test's server (a race
      // seen under load: the run then succeeded).
      endpoint.configure(agentDir, 9);
    } else {
      endpoint.configure(agentDir);
    }
    const { modelRuntime, model } = await chooseModel({ agentDir, model: 'test/plain' });
    const host = await PiConversationHost.open({
      space,
      appDirectory: join(base, 'app'),
      agentDir,
      modelRuntime,
      model,
      piSettings: SettingsManager.inMemory({ compaction: { enabled: false }, ...piSettings }),
    });
    return { host, endpoint };
  };
}
