import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FauxProviderRegistration,
  fauxProvider,
  InMemoryCredentialStore,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import { ModelRuntime, SettingsManager } from '@earendil-works/pi-coding-agent';
import { PiConversationHost, type PiConversationHostOptions } from '../pi-conversation-host.js';

/** Options of {@link createFauxHost}. */
export interface FauxHostOptions
  extends Partial<Omit<PiConversationHostOptions, 'modelRuntime' | 'model'>> {
  /** Pi settings overrides (default: compaction off, retry off). */
  piSettings?: SettingsManager;
  /** Faux model context window (default 128k). */
  contextWindow?: number;
}

/** A host on Pi's faux provider, with every provider request captured. */
export interface FauxHost {
  /** The host. */
  host: PiConversationHost;
  /** Pi's faux provider: script replies with `setResponses`. */
  faux: FauxProviderRegistration;
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
  process.env.PI_OFFLINE = '1';
  const base = mkdtempSync(join(tmpdir(), 'repa-faux-host-'));
  const space = options.space ?? join(base, 'space');
  mkdirSync(space, { recursive: true });
  const appDirectory = options.appDirectory ?? join(base, 'app');
  const agentDir = options.agentDir ?? join(base, 'agent');
  const faux = fauxProvider({
    models: [{ id: 'faux-1', contextWindow: options.contextWindow ?? 128_000, maxTokens: 16_384 }],
  });
  const requests: TranscriptContext[] = [];
  const provider = faux.provider;
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(provider);
  const model = modelRuntime.getModel('faux', 'faux-1');
  if (!model) throw new Error('faux model missing');
  const recording = modelRuntime.streamSimple.bind(modelRuntime);
  modelRuntime.streamSimple = ((m, context, streamOptions) => {
    requests.push(structuredClone(context));
    return recording(m, context, streamOptions);
  }) as typeof modelRuntime.streamSimple;
  const host = await PiConversationHost.open({
    ...options,
    space,
    appDirectory,
    agentDir,
    modelRuntime,
    model,
    piSettings:
      options.piSettings ??
      SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } }),
  });
  return { host, faux, requests, space, appDirectory };
}
