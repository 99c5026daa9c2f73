import { join } from 'node:path';
import type { SettingsManager } from '@earendil-works/pi-coding-agent';
import { PiConversationHost } from '../conversation/index.js';
import { offlineModel } from '../models/choose-model.js';
import { createFauxHost } from '../testing/index.js';

/**
 * A host on the offline model (Repa's local responder), in the temp space and app directory
 * {@link createFauxHost} makes, with Pi's settings `piSettings` when given.
 */
export async function openOfflineHost(piSettings?: SettingsManager) {
  const { space, appDirectory } = await createFauxHost();
  const choice = await offlineModel();
  const host = await PiConversationHost.open({
    space,
    appDirectory,
    agentDir: join(appDirectory, 'agent'),
    modelRuntime: choice.modelRuntime,
    model: choice.model,
    ...(piSettings ? { piSettings } : {}),
  });
  return { host, space, appDirectory };
}
