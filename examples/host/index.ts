import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fauxAssistantMessage } from '@earendil-works/pi-ai';
import { type ExtensionFactory, SettingsManager } from '@earendil-works/pi-coding-agent';
import { PiConversationHost } from '@repa/host';
import { createFauxModel } from '@repa/host/testing';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';

const base = mkdtempSync(join(tmpdir(), 'repa-host-example-'));
const space = join(base, 'biology');
mkdirSync(space);

// A model on Pi's faux provider (no network, no keys), answering every request with this reply.
const { modelRuntime, model } = await createFauxModel(() =>
  fauxAssistantMessage('Ribosomes make proteins.'),
);

// An extension of this program's own, on the one copy of Pi that the host runs too.
const turns: string[] = [];
const logTurns: ExtensionFactory = (pi) => {
  pi.on('turn_end', (event) => {
    turns.push(event.message.role);
  });
};

const host = await PiConversationHost.open({
  space,
  appDirectory: join(base, 'app'),
  agentDir: join(base, 'agent'),
  modelRuntime,
  model,
  trusted: true,
  extensions: [{ name: 'log-turns', factory: logTurns }],
  piSettings: SettingsManager.inMemory({
    compaction: { enabled: false },
    retry: { enabled: false },
  }),
});
const outcome = await host.send('What do ribosomes do?', DEFAULT_PROMPT_SETTINGS);
console.log(`${outcome.status}: ${outcome.output}`);
console.log(`the extension saw ${turns.length} turn(s): ${turns.join(', ')}`);
host.dispose();
