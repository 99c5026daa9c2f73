import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FauxResponseStep, fauxProvider, type TranscriptContext } from '@earendil-works/pi-ai';
import { SettingsManager } from '@earendil-works/pi-coding-agent';
import type { PiConversationHostOptions } from '../conversation/index.js';
import { PiConversationHost } from '../conversation/index.js';
import { fauxModelChoice } from '../models/index.js';

/** Options of {@link createFauxHost}. */
export interface FauxHostOptions
  extends Partial<Omit<PiConversationHostOptions, 'modelRuntime' | 'model'>> {
  /** Pi's own settings (default: automatic compaction and retry off; manual `compact()` keeps little). */
  piSettings?: SettingsManager;
  /** Faux model context window (default 128k). */
  contextWindow?: number;
  /**
   * Whether the space is trusted. Default: true when the helper makes the space (as Repa trusts a
   * plain folder it makes a space), false for a `space` passed in.
   */
  trusted?: boolean;
}

/** A host on Pi's faux provider, with every provider request captured. */
export interface FauxHost {
  /** The host. */
  host: PiConversationHost;
  /** Pi's faux provider: script replies with `setResponses`. */
  faux: ReturnType<typeof fauxProvider>;
  /** Every request the provider received, as cloned `TranscriptContext`s. */
  requests: TranscriptContext[];
  /** The space root. */
  space: string;
  /** The app directory. */
  appDirectory: string;
}

/**
 * Builds a real {@link PiConversationHost} on Pi's faux provider in temp directories (tests and
 * examples; no network, no keys). Script replies with `faux.setResponses`; every request is captured.
 */
export async function createFauxHost(options: FauxHostOptions = {}): Promise<FauxHost> {
  const base = mkdtempSync(join(tmpdir(), 'repa-faux-host-'));
  const space = options.space ?? join(base, 'space');
  mkdirSync(space, { recursive: true });
  const appDirectory = options.appDirectory ?? join(base, 'app');
  const agentDir = options.agentDir ?? join(base, 'agent');
  const faux = fauxProvider({
    models: [{ id: 'faux-1', contextWindow: options.contextWindow ?? 128_000, maxTokens: 16_384 }],
  });
  // Every scripted step first records the exact context the provider received.
  const requests: TranscriptContext[] = [];
  const recorded = (steps: FauxResponseStep[]): FauxResponseStep[] =>
    steps.map((step) => (context, streamOptions, state, model) => {
      requests.push(structuredClone(context));
      return typeof step === 'function' ? step(context, streamOptions, state, model) : step;
    });
  const { setResponses, appendResponses } = faux;
  faux.setResponses = (steps) => setResponses(recorded(steps));
  faux.appendResponses = (steps) => appendResponses(recorded(steps));
  const { modelRuntime, model } = await fauxModelChoice(faux, 'faux/faux-1');
  const host = await PiConversationHost.open({
    ...options,
    space,
    appDirectory,
    agentDir,
    modelRuntime,
    model,
    trusted: options.trusted ?? options.space === undefined,
    piSettings:
      options.piSettings ??
      SettingsManager.inMemory({
        compaction: { enabled: false, keepRecentTokens: 1 },
        retry: { enabled: false },
      }),
  });
  return { host, faux, requests, space, appDirectory };
}
