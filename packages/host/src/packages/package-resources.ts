import { isAbsolute } from 'node:path';
import type {
  AgentSessionRuntimeDiagnostic,
  Extension,
  LoadExtensionsResult,
  ResourceLoader,
  SourceInfo,
} from '@earendil-works/pi-coding-agent';
import type { PackageResource, ResourceDiagnostic } from '@repa/protocol';

/**
 * The space's resource loader without the extensions a session must not load (spec R34, R75):
 * one registering a tool with the name of a Repa tool (`reserved`: the content tools and `bash`)
 * would replace it, and one of the space's own scope in an untrusted space would run its code.
 * Each refused extension becomes a loading error, so it is reported rather than silently dropped.
 */
export function withoutRefusedExtensions<T extends ResourceLoader>(
  loader: T,
  options: { reserved: readonly string[]; trusted: boolean },
): T {
  let seen: LoadExtensionsResult | undefined;
  let kept: LoadExtensionsResult | undefined;
  const getExtensions = () => {
    const base = loader.getExtensions();
    if (base === seen && kept) return kept;
    const extensions: Extension[] = [];
    const errors = [...base.errors];
    for (const extension of base.extensions) {
      const refusal = refusalOf(extension, options);
      if (refusal) errors.push({ path: extension.path, error: refusal });
      else extensions.push(extension);
    }
    seen = base;
    kept = { ...base, extensions, errors };
    return kept;
  };
  return new Proxy(loader, {
    get: (target, property) => {
      if (property === 'getExtensions') return getExtensions;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function refusalOf(
  extension: Extension,
  options: { reserved: readonly string[]; trusted: boolean },
): string | undefined {
  // Repa's own inline extension (and an embedder's trusted ones) are not a package's.
  if (extension.path.startsWith('<inline:')) return undefined;
  if (!options.trusted && extension.sourceInfo?.scope === 'project') {
    return 'Extension of an untrusted space is not loaded; trust the space first (repa trust).';
  }
  const clashes = [...extension.tools.keys()].filter((name) => options.reserved.includes(name));
  if (clashes.length === 0) return undefined;
  return (
    `Extension registers the tool ${clashes.join(', ')}, a name of Repa's own tools; it is not ` +
    'loaded (a package may not replace how Repa reads and saves files).'
  );
}

/** The tools that loaded extensions register, with where each came from. */
export function extensionTools(loader: ResourceLoader): PackageResource[] {
  const tools: PackageResource[] = [];
  for (const extension of loader.getExtensions().extensions) {
    if (extension.path.startsWith('<inline:')) continue;
    for (const tool of extension.tools.values()) {
      const source = tool.sourceInfo ?? extension.sourceInfo;
      tools.push(resourceOf('tool', tool.definition.name, source, tool.definition.description));
    }
  }
  return tools;
}

/**
 * What Pi's packages (and the learner's own Pi folders) bring to a session: extensions, their
 * tools, skills and prompt templates, each with its package source and level. The prompt report
 * names them (spec R75).
 */
export function packageResources(loader: ResourceLoader): PackageResource[] {
  const found: PackageResource[] = [];
  for (const extension of loader.getExtensions().extensions) {
    if (extension.path.startsWith('<inline:')) continue;
    found.push(resourceOf('extension', extension.path, extension.sourceInfo));
  }
  found.push(...extensionTools(loader));
  for (const skill of loader.getSkills().skills) {
    if (skill.sourceInfo.origin === 'package') {
      found.push(resourceOf('skill', skill.name, skill.sourceInfo, skill.description));
    }
  }
  for (const prompt of loader.getPrompts().prompts) {
    found.push(resourceOf('prompt', prompt.name, prompt.sourceInfo, prompt.description));
  }
  return found;
}

function resourceOf(
  kind: PackageResource['kind'],
  name: string,
  source: SourceInfo | undefined,
  description?: string,
): PackageResource {
  return {
    kind,
    name,
    source: shownSource(source),
    level: source?.scope === 'project' ? 'space' : 'application',
    ...(description ? { description } : {}),
    ...(source?.origin === 'package' ? {} : { topLevel: true }),
  };
}

/** A package's source as Pi's settings hold it, except a local folder: absolute (Pi's base dir). */
function shownSource(source: SourceInfo | undefined): string {
  if (!source) return 'unknown';
  const local = !/^(npm|git|github|https?|ssh):/.test(source.source);
  const relative = local && !isAbsolute(source.source);
  return source.origin === 'package' && relative && source.baseDir ? source.baseDir : source.source;
}

/**
 * Pi's resource-loading diagnostics of a session (spec R75): extensions that failed or were
 * refused, skills and prompt templates with a bad header or a name collision, and the services'
 * own diagnostics.
 */
export function resourceDiagnostics(
  loader: ResourceLoader,
  services: readonly AgentSessionRuntimeDiagnostic[],
): ResourceDiagnostic[] {
  const found: ResourceDiagnostic[] = [];
  for (const error of loader.getExtensions().errors) {
    found.push({ kind: 'extension', severity: 'error', message: error.error, path: error.path });
  }
  const listed = [
    ['skill', loader.getSkills().diagnostics],
    ['prompt', loader.getPrompts().diagnostics],
  ] as const;
  for (const [kind, diagnostics] of listed) {
    for (const diagnostic of diagnostics) {
      found.push({
        kind,
        severity: diagnostic.type === 'error' ? 'error' : 'warning',
        message: diagnostic.message,
        ...(diagnostic.path ? { path: diagnostic.path } : {}),
      });
    }
  }
  for (const diagnostic of services) {
    if (diagnostic.type === 'info') continue;
    found.push({ kind: 'extension', severity: diagnostic.type, message: diagnostic.message });
  }
  return found;
}

/** The `packageResources` of a run's prompt report: none when no package brought anything. */
export function packageReport(resources: readonly PackageResource[]): {
  packageResources?: PackageResource[];
} {
  return resources.length > 0 ? { packageResources: [...resources] } : {};
}
