import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateTokens, SettingsManager } from '@earendil-works/pi-coding-agent';
import type { PromptSettings } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { offlineModel } from '../models/choose-model.js';
import { createFauxHost } from '../testing/index.js';
import { PiConversationHost } from './pi-conversation-host.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

/** A host on the offline responder that keeps as little as Pi allows when compacting. */
async function offlineHost() {
  const { space, appDirectory } = await createFauxHost();
  const choice = await offlineModel();
  const host = await PiConversationHost.open({
    space,
    appDirectory,
    agentDir: join(appDirectory, 'agent'),
    modelRuntime: choice.modelRuntime,
    model: choice.model,
    piSettings: SettingsManager.inMemory({
      compaction: { enabled: false, keepRecentTokens: 1 },
      retry: { enabled: false },
    }),
  });
  writeFileSync(join(space, 'cells.md'), '# Cells\nMitochondria make ATP for the cell.\n');
  return host;
}

/** Pi's chars/4 estimate of what the session's model is sent now. */
const projected = (host: PiConversationHost) =>
  host.session.sessionManager
    .buildSessionProjection()
    .messages.reduce((sum, message) => sum + estimateTokens(message), 0);

describe('compacting on request', () => {
  it('summarises on the offline responder, with the instructions, figures on one basis', async () => {
    const host = await offlineHost();
    await host.send('What do mitochondria make? See cells.md', defaults);
    await host.send('And what does cells.md say about cells?', defaults);
    const before = projected(host);
    const outcome = await host.compact('keep the open questions', defaults);
    expect(outcome.summary).toContain(
      '[repa-offline] The conversation so far, summarised without a language model',
    );
    expect(outcome.summary).toContain('## Focus asked for\nkeep the open questions');
    expect(outcome.summary).toContain('## Requests\n- What do mitochondria make? See cells.md');
    expect(outcome.instructionsApplied).toBe(true);
    expect(outcome.tokensBefore).toBe(before);
    expect(outcome.tokensAfter).toBe(projected(host));
    host.dispose();
  });

  it('says the instructions were not applied when Pi summarised only the start of a turn', async () => {
    const host = await offlineHost();
    // One turn with a tool call: the kept part cuts it, and nothing came before it.
    await host.send('What do mitochondria make? See cells.md', defaults);
    const outcome = await host.compact('keep the open questions', defaults);
    expect(outcome.summary).toContain('[repa-offline] The start of the current turn');
    expect(outcome.summary).not.toContain('keep the open questions');
    expect(outcome.instructionsApplied).toBe(false);
    host.dispose();
  });
});
