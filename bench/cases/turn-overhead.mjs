// Benchmark 1 — turn overhead: the same scripted 5-turn conversation (each turn: read, edit, answer)
// through Repa's PiConversationHost and through a bare Pi AgentSession with Pi's own tools.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fauxAssistantMessage,
  fauxProvider,
  fauxToolCall,
  InMemoryCredentialStore,
} from '@earendil-works/pi-ai';
import {
  createAgentSessionFromServices,
  createAgentSessionServices,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { PiConversationHost } from '@repa/host';
import { measureSides } from '../lib/compare.mjs';
import { progress } from '../lib/progress.mjs';

const TURNS = 5;
const FILES = Array.from({ length: TURNS }, (_, index) => `notes/topic-${index + 1}.md`);

/** The effective prompt settings of a default run (protocol `PromptSettings`). */
const DEFAULT_SETTINGS = {
  base: null,
  append: '',
  projectInstructions: false,
  skillCatalog: true,
  environment: true,
  learningContext: true,
  fileChanges: 'on-demand',
};

function fileText(index) {
  const lines = [`# Topic ${index + 1}`, ''];
  for (let line = 0; line < 40; line++) {
    lines.push(`Line ${line} of topic ${index + 1}: photosynthesis turns light into sugar.`);
  }
  lines.push('', 'Status: draft', '');
  return lines.join('\n');
}

/** The faux replies of one conversation: per turn a read, an edit, then a short answer. */
function script() {
  const steps = [];
  for (const [index, path] of FILES.entries()) {
    steps.push(
      fauxAssistantMessage([fauxToolCall('read', { path })], { stopReason: 'toolUse' }),
      fauxAssistantMessage(
        [
          fauxToolCall('edit', {
            path,
            edits: [{ oldText: 'Status: draft', newText: `Status: reviewed in turn ${index + 1}` }],
          }),
        ],
        { stopReason: 'toolUse' },
      ),
      fauxAssistantMessage(`Marked ${path} as reviewed.`),
    );
  }
  return steps;
}

function resetFiles(space) {
  for (const [index, path] of FILES.entries()) {
    mkdirSync(join(space, 'notes'), { recursive: true });
    writeFileSync(join(space, path), fileText(index));
  }
}

function piSettings() {
  return SettingsManager.inMemory({
    compaction: { enabled: false },
    retry: { enabled: false },
  });
}

/** Runs benchmark 1 and returns its table rows. */
export async function turnOverhead({ scale = 1, settings = DEFAULT_SETTINGS } = {}) {
  const rounds = 3;
  const iterations = Math.max(2, Math.round((45 * scale) / rounds));
  process.env.PI_OFFLINE = '1';
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-turn-'));
  const agentDir = join(base, 'agent');
  const appDirectory = join(base, 'app');
  mkdirSync(appDirectory, { recursive: true });
  const faux = fauxProvider({
    models: [{ id: 'faux-1', contextWindow: 128_000, maxTokens: 16_384 }],
  });
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  const model = modelRuntime.getModel('faux', 'faux-1');
  if (!model) throw new Error('faux model missing');

  let counter = 0;
  const freshSpace = () => {
    counter += 1;
    const space = join(base, `space-${counter}`);
    mkdirSync(space, { recursive: true });
    resetFiles(space);
    return space;
  };

  /** Bare Pi: the same services path the host uses, Pi's own read and edit tools, no extension. */
  let bare;
  const openBare = async () => {
    const space = freshSpace();
    const services = await createAgentSessionServices({
      cwd: space,
      agentDir,
      settingsManager: piSettings(),
      modelRuntime,
      resourceLoaderOptions: { noExtensions: true, noPromptTemplates: true, noThemes: true },
    });
    const { session } = await createAgentSessionFromServices({
      services,
      sessionManager: SessionManager.create(space, join(space, '.pi-sessions')),
      model,
      thinkingLevel: 'off',
      tools: ['read', 'edit'],
    });
    await session.bindExtensions({ onError: () => {} });
    faux.setResponses(script());
    bare = session;
  };

  let host;
  let hostSpace;
  const openHost = async () => {
    const space = freshSpace();
    hostSpace = space;
    host = await PiConversationHost.open({
      space,
      appDirectory,
      agentDir,
      modelRuntime,
      model,
      piSettings: piSettings(),
    });
    faux.setResponses(script());
  };

  /** Both sides must really have edited every file, or the comparison means nothing. */
  const check = (text, space, who) => {
    if (!text?.startsWith('Marked notes/topic-5.md')) {
      throw new Error(`${who}: the scripted conversation did not finish (last reply: ${text})`);
    }
    for (const [index, path] of FILES.entries()) {
      const saved = readFileSync(join(space, path), 'utf8');
      if (!saved.includes(`Status: reviewed in turn ${index + 1}`)) {
        throw new Error(`${who}: ${path} was not edited`);
      }
    }
  };

  const [pi, repa] = await measureSides({
    iterations,
    rounds,
    warmup: 2,
    onRound: progress('turn overhead', rounds),
    sides: [
      {
        name: 'bare Pi AgentSession',
        beforeEach: openBare,
        fn: async () => {
          for (let turn = 0; turn < TURNS; turn++) await bare.prompt(`Review turn ${turn + 1}`);
        },
        afterEach: () => {
          check(bare.getLastAssistantText(), bare.sessionManager.getCwd(), 'bare Pi');
          bare.dispose();
        },
      },
      {
        name: 'Repa PiConversationHost',
        beforeEach: openHost,
        fn: async () => {
          for (let turn = 0; turn < TURNS; turn++) {
            const outcome = await host.send(`Review turn ${turn + 1}`, settings);
            if (outcome.status !== 'succeeded') throw new Error(JSON.stringify(outcome.error));
          }
        },
        afterEach: () => {
          check(host.session.getLastAssistantText(), hostSpace, 'Repa');
          host.dispose();
        },
      },
    ],
  });
  rmSync(base, { recursive: true, force: true });
  return [
    {
      bench: 'turn overhead',
      case: `${TURNS} turns × (read + edit + answer), faux model`,
      baseline: pi,
      candidate: repa,
      target: { max: 1.1 },
    },
  ];
}
