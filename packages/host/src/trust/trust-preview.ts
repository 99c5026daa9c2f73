import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { INSTRUCTION_FILES } from '@repa/content';
import { readLearningContext } from '@repa/context';
import type { RestrictedItem } from '@repa/protocol';
import { listSessionFiles, sessionDirectoryOf, sessionIdOfFileName } from '../sessions/index.js';
import { addPi, addSkills } from './trust-preview-pi.js';
import { ENTRY_BUDGET, headOf, lstatOr, Preview, shown } from './trust-preview-read.js';
import { type KnownToRepa, learningContextDigest } from './trusted-pi-files.js';

/** The bytes read from the start of an instruction file to quote its first lines. */
const HEAD_BYTES = 4096;
/** The lines quoted from an instruction file, the characters of each and of all of them. */
const HEAD_LINES = 5;
const LINE_CHARS = 160;
const HEAD_CHARS = 400;

/**
 * The instruction files at the space's root: the first in Pi's order is the one Pi reads, quoted
 * by its first lines; the others are shadowed by it.
 */
async function addInstructions(preview: Preview, space: string): Promise<void> {
  let first: { name: string; stats: Stats } | undefined;
  for (const name of INSTRUCTION_FILES) {
    const path = join(space, name);
    const stats = await lstatOr(path);
    if (!stats) continue;
    if (first && first.stats.ino === stats.ino && first.stats.dev === stats.dev) continue; // One file, two spellings.
    if (first) {
      preview.add({
        kind: 'instructions',
        path: name,
        detail: `Project instructions Pi does not read while ${first.name} is there (Pi reads the first in its order).`,
      });
      continue;
    }
    first = { name, stats };
    if (!stats.isFile()) {
      await preview.odd(path, name, stats, 'instructions', 'read project instructions');
      continue;
    }
    const head = await headOf(path, HEAD_BYTES);
    const lines: string[] = [];
    let chars = 0;
    for (const line of (head?.text ?? '').split(/\r?\n/u).slice(0, HEAD_LINES)) {
      if (chars >= HEAD_CHARS) break;
      const quoted = shown(line, Math.min(LINE_CHARS, HEAD_CHARS - chars));
      chars += quoted.length;
      lines.push(quoted);
    }
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    preview.add({
      kind: 'instructions',
      path: name,
      lines,
      detail: 'Project instructions, given to the model when prompts.projectInstructions is on.',
    });
  }
}

/**
 * What an untrusted space holds that Repa leaves without effect until the learner trusts it,
 * what runs as code first (`runsCode`): each extension Pi would load from `.pi/extensions`, each
 * package, extension and npm command named in `.pi/settings.json`; then Pi's settings, each skill
 * (`.pi/skills`, `.agents/skills`) and prompt template by name, the first lines of the instruction
 * file Pi reads, a learning context Repa did not write and sessions Repa did not start. Reads names
 * and bounded bytes only, never following a link, never opening anything but a regular file, never
 * running or importing anything.
 */
export async function inspectSpaceForTrust(
  space: string,
  known: KnownToRepa,
): Promise<RestrictedItem[]> {
  const preview = new Preview();
  await addPi(preview, space);
  const agents = await lstatOr(join(space, '.agents'));
  const agentSkills = agents?.isDirectory()
    ? await lstatOr(join(space, '.agents', 'skills'))
    : agents;
  if (agentSkills?.isDirectory()) await addSkills(preview, space, '.agents/skills', 'agent-skills');
  else if (agentSkills && !agentSkills.isFile()) {
    const rel = agents?.isDirectory() ? '.agents/skills' : '.agents';
    await preview.odd(join(space, rel), rel, agentSkills, 'agent-skills', 'find skills');
  }
  await addInstructions(preview, space);
  if (preview.budget.cut) {
    preview.add({
      kind: 'pi-resources',
      path: '.pi',
      runsCode: true,
      detail: `More than ${ENTRY_BUDGET} entries: Repa stopped listing them, and more of them may run as code. Look at the folder yourself before you trust it.`,
    });
  }
  const context = await readLearningContext(space).catch(() => null);
  if (context && !known.contexts.includes(learningContextDigest(context.body))) {
    preview.add({
      kind: 'learning-context',
      path: '.repa/learning-context.json',
      detail: `A learning context Repa did not write here (${context.body.length} characters), given to the model at every run.`,
    });
  }
  const foreign = (await listSessionFiles(sessionDirectoryOf(space)).catch(() => [] as string[]))
    .map((file) => sessionIdOfFileName(file).sessionId)
    .filter((sessionId) => !known.session(sessionId));
  if (foreign.length > 0) {
    preview.add({
      kind: 'sessions',
      path: '.repa/sessions',
      detail: `${foreign.length} session${foreign.length === 1 ? '' : 's'} Repa did not start here, hidden from lists and never continued (their history would be sent to the model as yours).`,
    });
  }
  return [...preview.code, ...preview.other];
}
