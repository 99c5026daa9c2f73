import { join } from 'node:path';
import type { RestrictedItem } from '@repa/protocol';
import {
  headOf,
  linkTarget,
  lstatOr,
  namesIn,
  type Preview,
  RUNS_AS_CODE,
  shown,
} from './trust-preview-read.js';
import { PI_FILE_LIMIT } from './trusted-pi-files.js';

/** How deep a skills folder is walked for skills, as far as Pi's own checks go. */
const SKILL_DEPTH = 8;

/** The extensions Pi loads from `.pi/extensions`: its `.js`/`.ts` files and its extension folders. */
async function addExtensions(preview: Preview, space: string): Promise<void> {
  const folder = join(space, '.pi', 'extensions');
  const found: RestrictedItem[] = [];
  for (const name of await namesIn(folder, preview.budget)) {
    if (name.startsWith('.') || name === 'node_modules') continue; // Pi skips them.
    const path = join(folder, name);
    const stats = await lstatOr(path);
    const rel = `.pi/extensions/${shown(name)}`;
    const item = (detail: string) => ({
      kind: 'pi-resources' as const,
      path: rel,
      runsCode: true,
      detail,
    });
    if (stats?.isSymbolicLink()) {
      found.push(
        item(
          `A link to ${await linkTarget(path)}: Pi loads the extension it leads to, which ${RUNS_AS_CODE}.`,
        ),
      );
    } else if (stats?.isFile() && /\.(js|ts)$/u.test(name)) {
      found.push(item(`An extension: Pi loads it, and it ${RUNS_AS_CODE}.`));
    } else if (stats?.isFile() && name === 'package.json') {
      found.push(item(`Names the extensions Pi loads from .pi/extensions; each ${RUNS_AS_CODE}.`));
    } else if (stats?.isDirectory()) {
      const entries = [];
      for (const entry of ['package.json', 'index.ts', 'index.js']) {
        if (await lstatOr(join(path, entry))) entries.push(entry);
      }
      if (entries.length > 0) {
        found.push(
          item(
            `An extension folder (Pi loads it through its ${entries.join(' or ')}): it ${RUNS_AS_CODE}.`,
          ),
        );
      }
    }
  }
  if (found.length === 0) {
    preview.add({
      kind: 'pi-resources',
      path: '.pi/extensions',
      detail: 'Holds no extension now; once trusted, Pi runs any extension put here as code.',
    });
  }
  preview.addListed(found, (count) => ({
    kind: 'pi-resources',
    path: '.pi/extensions',
    runsCode: true,
    detail: `${count} more extensions not named here; each ${RUNS_AS_CODE}.`,
  }));
}

/** Pi's settings of the space, with each package and extension it names (read, never run). */
async function addPiSettings(preview: Preview, space: string): Promise<void> {
  const rel = '.pi/settings.json';
  const head = await headOf(join(space, '.pi', 'settings.json'), PI_FILE_LIMIT);
  preview.add({
    kind: 'pi-settings',
    path: rel,
    detail:
      head && head.size > PI_FILE_LIMIT
        ? `Pi's settings for this folder, over ${PI_FILE_LIMIT} bytes: Repa refuses to run with it while the space is trusted.`
        : "Pi's settings for this folder: packages to install, the npm command and shell Pi runs, the thinking level and other Pi options.",
  });
  if (!head || head.size > PI_FILE_LIMIT) return;
  let settings: Record<string, unknown>;
  try {
    settings = JSON.parse(head.text.replace(/^\uFEFF/u, '')) as Record<string, unknown>;
  } catch {
    return; // Pi reports a broken settings file and loads nothing from it.
  }
  if (typeof settings !== 'object' || settings === null) return;
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const named = (name: string, detail: string): RestrictedItem => ({
    kind: 'pi-settings',
    path: rel,
    name: shown(name),
    runsCode: true,
    detail,
  });
  const packages = list(settings.packages).flatMap((entry) => {
    const source =
      typeof entry === 'string' ? entry : (entry as { source?: unknown } | null)?.source;
    return typeof source === 'string'
      ? [
          named(
            source,
            `A Pi package: Pi loads the extensions it brings, and each ${RUNS_AS_CODE}.`,
          ),
        ]
      : [];
  });
  preview.addListed(packages, (count) => ({
    kind: 'pi-settings',
    path: rel,
    runsCode: true,
    detail: `${count} more packages not named here; what each brings ${RUNS_AS_CODE}.`,
  }));
  const extensions = list(settings.extensions).flatMap((entry) =>
    typeof entry === 'string'
      ? [named(entry, `An extension named in Pi's settings: Pi loads it, and it ${RUNS_AS_CODE}.`)]
      : [],
  );
  preview.addListed(extensions, (count) => ({
    kind: 'pi-settings',
    path: rel,
    runsCode: true,
    detail: `${count} more extensions named in Pi's settings; each ${RUNS_AS_CODE}.`,
  }));
  const npm = list(settings.npmCommand).filter((part) => typeof part === 'string');
  if (npm.length > 0) {
    preview.add(
      named(npm.join(' '), `The command Pi runs to install packages: it ${RUNS_AS_CODE}.`),
    );
  }
}

/**
 * The skills Pi finds in a skills folder: a folder holding `SKILL.md` is one skill (named after
 * the folder); in `.pi/skills` a Markdown file at its top is one too.
 */
export async function addSkills(
  preview: Preview,
  space: string,
  rel: '.pi/skills' | '.agents/skills',
  kind: RestrictedItem['kind'],
): Promise<void> {
  const found: RestrictedItem[] = [];
  const walk = async (folder: string, relFolder: string, depth: number): Promise<void> => {
    const names = await namesIn(folder, preview.budget);
    if (names.includes('SKILL.md')) {
      const name = relFolder.split('/').at(-1) ?? relFolder;
      found.push({
        kind,
        path: `${relFolder}/SKILL.md`,
        name,
        detail: "A skill: offered to the model in the prompt's skill catalog.",
      });
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const path = join(folder, name);
      const stats = await lstatOr(path);
      const relPath = `${relFolder}/${shown(name)}`;
      if (stats?.isSymbolicLink()) {
        found.push({
          kind,
          path: relPath,
          detail: `A link to ${await linkTarget(path)}: Pi follows it to find skills.`,
        });
      } else if (stats?.isFile() && depth === 0 && rel === '.pi/skills' && name.endsWith('.md')) {
        const skill = shown(name.slice(0, -3));
        found.push({
          kind,
          path: relPath,
          name: skill,
          detail: "A skill: offered to the model in the prompt's skill catalog.",
        });
      } else if (stats?.isDirectory() && depth < SKILL_DEPTH) {
        await walk(path, relPath, depth + 1);
      }
    }
  };
  await walk(join(space, rel), rel, 0);
  if (found.length === 0) {
    preview.add({
      kind,
      path: rel,
      detail: 'Holds no skill now; once trusted, Pi offers the model any skill put here.',
    });
  }
  preview.addListed(found, (count) => ({
    kind,
    path: rel,
    detail: `${count} more skills not named here.`,
  }));
}

/** The prompt templates of `.pi/prompts`: each Markdown file, used as `/name` in a request. */
async function addTemplates(preview: Preview, space: string): Promise<void> {
  const folder = join(space, '.pi', 'prompts');
  const found: RestrictedItem[] = [];
  for (const name of await namesIn(folder, preview.budget)) {
    if (name.startsWith('.') || !name.endsWith('.md')) continue;
    const stats = await lstatOr(join(folder, name));
    if (!stats?.isFile() && !stats?.isSymbolicLink()) continue;
    const template = shown(name.slice(0, -3));
    found.push({
      kind: 'pi-resources',
      path: `.pi/prompts/${shown(name)}`,
      name: template,
      detail: `A prompt template: /${template} in a request is replaced by its text.`,
    });
  }
  if (found.length === 0) {
    preview.add({
      kind: 'pi-resources',
      path: '.pi/prompts',
      detail: 'Holds no prompt template now.',
    });
  }
  preview.addListed(found, (count) => ({
    kind: 'pi-resources',
    path: '.pi/prompts',
    detail: `${count} more prompt templates not named here.`,
  }));
}

/** Everything in `.pi/`: its settings, extensions, skills and templates, and any other entry. */
export async function addPi(preview: Preview, space: string): Promise<void> {
  const pi = join(space, '.pi');
  const stats = await lstatOr(pi);
  if (!stats) return;
  if (!stats.isDirectory()) {
    await preview.odd(
      pi,
      '.pi',
      stats,
      'pi-resources',
      'load its settings, packages and extensions',
    );
    return;
  }
  for (const name of await namesIn(pi, preview.budget)) {
    const path = join(pi, name);
    const entry = await lstatOr(path);
    if (!entry) continue;
    const rel = `.pi/${shown(name)}`;
    const folder = entry.isDirectory();
    if (name === 'settings.json' && !folder) {
      if (entry.isFile()) await addPiSettings(preview, space);
      else
        await preview.odd(
          path,
          rel,
          entry,
          'pi-settings',
          'read its settings, packages and extensions',
        );
    } else if (['extensions', 'skills', 'prompts'].includes(name) && !folder) {
      await preview.odd(path, rel, entry, 'pi-resources', `load its ${name}`);
    } else if (name === 'extensions') await addExtensions(preview, space);
    else if (name === 'skills') await addSkills(preview, space, '.pi/skills', 'pi-resources');
    else if (name === 'prompts') await addTemplates(preview, space);
    else {
      preview.add({
        kind: 'pi-resources',
        path: rel,
        detail:
          "Pi's own file for this folder (a theme, a system prompt file or another resource), read once the space is trusted.",
      });
    }
  }
}
