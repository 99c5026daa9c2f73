import {
  DefaultResourceLoader,
  type InlineExtension,
  type SettingsManager,
} from '@earendil-works/pi-coding-agent';

/** Where a {@link bareResourceLoader} stands, and the extensions it loads. */
export interface BareResourceLoaderOptions {
  cwd: string;
  agentDir: string;
  settingsManager: SettingsManager;
  /** Inline extensions, the only ones it loads (default: none). */
  extensionFactories?: InlineExtension[];
}

/**
 * Pi's resource loader, loaded, that reads nothing from disk: no extensions, skills, prompt
 * templates, themes or context files, so a session's context holds only what its caller gives.
 */
export async function bareResourceLoader({
  cwd,
  agentDir,
  settingsManager,
  extensionFactories = [],
}: BareResourceLoaderOptions): Promise<DefaultResourceLoader> {
  const loader = new DefaultResourceLoader({
    cwd,
    agentDir,
    settingsManager,
    noExtensions: true,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    extensionFactories,
  });
  await loader.reload();
  return loader;
}
