import { isAbsolute } from 'node:path';
import {
  DefaultPackageManager,
  DefaultResourceLoader,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import {
  type ConfiguredPackage,
  type PackageLevel,
  type PackageResource,
  REPA_TOOL_NAMES,
  RepaError,
  type ResourceDiagnostic,
} from '@repa/protocol';
import { checkTrustedPiFiles, withSkillsWithinSpace } from '../trust/index.js';
import {
  packageResources,
  resourceDiagnostics,
  withoutRefusedExtensions,
} from './package-resources.js';

/** Whose Pi packages: the learner's own Pi settings, and a space's when it is given and trusted. */
export interface PackagesScope {
  /** Pi's configuration directory (the application level's settings and installs). */
  agentDir: string;
  /** The space (absolute), for its own `.pi/settings.json`. */
  space?: string | undefined;
  /** Whether the learner trusts the space; nothing of an untrusted space's `.pi/` is read. */
  trusted: boolean;
}

/** The Pi packages of a scope and what a new session there loads (spec R75). */
export interface PackagesListing {
  /** The configured packages, application level first. */
  packages: ConfiguredPackage[];
  /** What a new session loads from packages and the learner's Pi folders. */
  resources: PackageResource[];
  /** Pi's loading diagnostics, refused extensions included. */
  diagnostics: ResourceDiagnostic[];
}

function piOf(scope: PackagesScope) {
  const trusted = scope.space !== undefined && scope.trusted;
  // Without a space, Pi's project level is left unread (the agent folder stands in as its cwd).
  const cwd = scope.space ?? scope.agentDir;
  const settingsManager = SettingsManager.create(cwd, scope.agentDir, { projectTrusted: trusted });
  const manager = new DefaultPackageManager({ cwd, agentDir: scope.agentDir, settingsManager });
  return { cwd, trusted, settingsManager, manager };
}

function configured(
  entry: ReturnType<DefaultPackageManager['listConfiguredPackages']>[number],
): ConfiguredPackage {
  // Pi keeps a local folder relative to its settings file; people are shown where it is.
  const local = sourceKind(entry.source) === 'local';
  return {
    source: local && entry.installedPath ? entry.installedPath : entry.source,
    level: entry.scope === 'project' ? 'space' : 'application',
    filtered: entry.filtered,
    ...(entry.installedPath ? { installedPath: entry.installedPath } : {}),
  };
}

/**
 * The packages configured for the application and (trusted) space, with what a new session
 * there loads and Pi's diagnostics. Loads the packages' extensions as a session would, to find
 * their tools and the ones that fail or are refused.
 */
export async function listPiPackages(scope: PackagesScope): Promise<PackagesListing> {
  const { cwd, trusted, settingsManager, manager } = piOf(scope);
  if (trusted && scope.space) await checkTrustedPiFiles(scope.space);
  const packages = manager.listConfiguredPackages().map(configured);
  packages.sort((a, b) => Number(a.level === 'space') - Number(b.level === 'space'));
  const base = new DefaultResourceLoader({
    cwd,
    agentDir: scope.agentDir,
    settingsManager,
    noThemes: true,
    noContextFiles: true,
  });
  await base.reload();
  // The session's own filters: what it would leave out is listed as a diagnostic, not a resource.
  const skills = scope.space ? withSkillsWithinSpace(base, scope.space) : base;
  const loader = withoutRefusedExtensions(skills, { reserved: REPA_TOOL_NAMES, trusted });
  return {
    packages,
    resources: packageResources(loader),
    diagnostics: resourceDiagnostics(loader, []),
  };
}

/** What {@link addPiPackage} and {@link removePiPackage} act on. */
export interface PackageChange extends PackagesScope {
  /** The package source: an absolute local folder, `npm:…` or a git URL. */
  source: string;
  /** Where it is configured. */
  level: PackageLevel;
}

/** True when Pi's own switch keeps it from the network (Repa's default, `PI_OFFLINE=1`). */
function piOffline(): boolean {
  const value = process.env.PI_OFFLINE?.toLowerCase();
  return value === '1' || value === 'true' || value === 'yes';
}

/** Pi's kinds of source, by its own prefixes: npm, git (a remote URL), else a local path. */
function sourceKind(source: string): 'npm' | 'git' | 'local' {
  if (source.startsWith('npm:')) return 'npm';
  return /^(git|github|https?|ssh):/.test(source.trim()) ? 'git' : 'local';
}

function checkChange(change: PackageChange, installing: boolean) {
  if (change.level === 'space' && !(change.space && change.trusted)) {
    throw new RepaError(
      'space_untrusted',
      "A space's own Pi packages are read and installed only in a trusted space.",
      { details: { level: 'space' } },
    );
  }
  const kind = sourceKind(change.source);
  if (kind === 'local' && !isAbsolute(change.source)) {
    throw new RepaError('invalid_request', `The local package ${change.source} is not absolute.`, {
      fix: 'Give the folder as an absolute path (the repa command resolves a relative one).',
      details: { field: 'source' },
    });
  }
  if (installing && kind !== 'local' && piOffline()) {
    throw new RepaError(
      'offline',
      `${change.source} is an ${kind} package, and Repa keeps Pi offline: nothing was installed.`,
      { details: { source: change.source } },
    );
  }
}

/** Runs a change through Pi, then waits for Pi's settings to be written (or says why not). */
async function throughPi<T>(
  source: string,
  settingsManager: SettingsManager,
  action: () => Promise<T>,
): Promise<T> {
  try {
    const result = await action();
    await settingsManager.flush();
    const [failed] = settingsManager.drainErrors();
    if (failed) {
      throw new RepaError(
        'settings_corrupt',
        `Pi's ${failed.scope} settings (${failed.path ?? 'settings.json'}) could not be read or written: ${failed.error.message}`,
        { details: { source, ...(failed.path ? { path: failed.path } : {}) } },
      );
    }
    return result;
  } catch (error) {
    if (error instanceof RepaError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/^Path does not exist/.test(message)) {
      throw new RepaError('not_found', `${message}.`, { details: { source } });
    }
    throw new RepaError('package_failed', message, { details: { source } });
  }
}

/**
 * Installs a package through Pi's package manager and adds it to the level's Pi settings (spec
 * R75). `space_untrusted` for the space level of an untrusted space, `offline` for an npm or git
 * source while Pi is kept offline, `not_found` for a missing folder, `package_failed` otherwise.
 */
export async function addPiPackage(
  change: PackageChange,
  onProgress?: (message: string) => void,
): Promise<{ package: ConfiguredPackage; added: boolean }> {
  checkChange(change, true);
  const { manager, settingsManager } = piOf(change);
  const local = change.level === 'space';
  manager.setProgressCallback((event) => {
    if (event.message) onProgress?.(event.message);
  });
  const before = manager.listConfiguredPackages().length;
  await throughPi(change.source, settingsManager, () =>
    manager.installAndPersist(change.source, { local }),
  );
  const after = manager.listConfiguredPackages();
  const scope = local ? 'project' : 'user';
  const entry =
    after.find((item) => item.scope === scope && configured(item).source === change.source) ??
    after.filter((item) => item.scope === scope).at(-1);
  if (!entry) throw new RepaError('package_failed', `Pi did not record ${change.source}.`);
  return { package: configured(entry), added: after.length > before };
}

/**
 * Removes a package through Pi's package manager and from the level's Pi settings; `removed` is
 * false when the settings did not list it. Refuses as {@link addPiPackage} does (offline aside:
 * removing needs no network).
 */
export async function removePiPackage(change: PackageChange): Promise<{ removed: boolean }> {
  checkChange(change, false);
  const { manager, settingsManager } = piOf(change);
  const local = change.level === 'space';
  const removed = await throughPi(change.source, settingsManager, () =>
    manager.removeAndPersist(change.source, { local }),
  );
  return { removed };
}
