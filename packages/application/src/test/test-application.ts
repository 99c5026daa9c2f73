import { join } from 'node:path';
import { createScriptedModel } from '@repa/host/testing';
import type { RepaApplicationOptions } from '../application-options.js';
import { RepaApplication } from '../repa-application.js';
import { tempAppDirectory } from './builders.js';

/**
 * An application whose app directory is `base/app` and Pi's agent dir `base/agent` (`base`: a
 * fresh temp dir unless given), on the scripted model unless `options` name one; `options` over
 * those.
 */
export async function openTestApplication(
  options: Partial<RepaApplicationOptions> = {},
  base = tempAppDirectory(),
): Promise<{ app: RepaApplication; base: string }> {
  const app = await RepaApplication.open({
    appDirectory: join(base, 'app'),
    agentDir: join(base, 'agent'),
    ...('model' in options ? {} : { model: await createScriptedModel() }),
    ...options,
  });
  return { app, base };
}
