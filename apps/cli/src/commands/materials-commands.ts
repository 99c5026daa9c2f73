import { resolve } from 'node:path';
import type { MaterialInfo } from '@repa/protocol';
import type { CliContext } from '../cli-context.js';
import { spaceOf, writableSpace } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { formatTable, writeJson } from '../format-table.js';
import { terminalWidth } from '../style.js';
import { usageError } from '../usage-error.js';

/** A size for people: `812 B`, `14 KB`, `1.2 MB`. */
function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** What is wrong with a material, for its STATE column. */
function stateOf(material: MaterialInfo): string {
  if (material.state === 'vanished') return 'file gone';
  if (material.state === 'changed') return `now ${material.currentType ?? 'another type'}`;
  return 'ok';
}

function writeMaterials(context: CliContext, materials: readonly MaterialInfo[]): void {
  if (materials.length === 0) {
    context.stdout.write('no materials granted (repa materials add PATH grants one)\n');
    return;
  }
  const rows = materials.map((material) => [
    material.identity,
    material.type ?? '',
    size(material.bytes),
    stateOf(material),
    material.spaces === null ? 'every space' : material.spaces.join(', '),
    material.title ?? '',
  ]);
  context.stdout.write(
    formatTable(['material', 'type', 'size', 'state', 'spaces', 'title'], rows, {
      width: terminalWidth(context.stdout),
      out: context.stdout,
    }),
  );
}

const MATERIALS_HELP = `An outside material is a file outside any space (a book chapter, a paper) that the learner
grants read-only to one space or to every space. The model is told which materials its space may
read (id, title, type, size) and reads them as repa:material/<id>: PDFs, Word documents (DOCX),
EPUBs and web pages (HTML) as their text, text files as they are. It never writes them and Repa
does not track their changes. Grants are kept in the app directory (repa-content-access.json).`;

const materialsAdd = defineCommand({
  words: ['materials', 'add'],
  summary: 'grant an outside file (PDF, DOCX, EPUB, HTML, text) to a space',
  usage: 'materials add PATH [--id ID] [--title T] [--space DIR | --all-spaces]',
  help: `Grants the file at PATH read-only to the space (the current directory by default) or to every
space. ${MATERIALS_HELP}

Adding the same file under its id again grants it to another space as well. A file Repa cannot read
as text is refused (unsupported_content).

Arguments:
  PATH             the file (relative to the current directory)

Options:
  --id ID          its id, as in repa:material/ID (default: made from the file name)
  --title T        a title the model is told
  --space DIR      the space it is granted to (default: the current directory)
  --all-spaces     grant it to every space

With --json: {"material": {"id", "identity", "path", "type", "bytes", "spaces", "state", …}, "revision"}.`,
  options: {
    id: { type: 'string' },
    title: { type: 'string' },
    space: { type: 'string' },
    'all-spaces': { type: 'boolean' },
  },
  positionals: [1, 1],
  async run(context, args, values) {
    const allSpaces = values['all-spaces'] === true;
    if (allSpaces && values.space !== undefined) {
      throw usageError('--space and --all-spaces exclude each other.', 'Give one of them.');
    }
    const id = values.id;
    const title = values.title;
    const client = await context.client();
    const result = await client.request('materials.add', {
      path: resolve(context.cwd, args[0] as string),
      ...(id === undefined ? {} : { id }),
      ...(title === undefined ? {} : { title }),
      ...(allSpaces
        ? { allSpaces: true }
        : { space: await writableSpace(context, client, values.space) }),
    });
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    const { material } = result;
    const where = material.spaces === null ? 'every space' : material.spaces.join(', ');
    context.stdout.write(
      `granted ${material.identity} (${material.type ?? 'file'}, ${size(material.bytes)}) to ${where}\n`,
    );
    return 0;
  },
});

const materialsList = defineCommand({
  words: ['materials', 'list'],
  summary: 'list the outside materials a space may read',
  usage: 'materials list [--space DIR | --all]',
  help: `Lists the materials granted to the space (the current directory by default), or every grant
with --all, with their type, size and state: "file gone" when the file is no longer there, "now …"
when it is no longer of the type it was granted as. ${MATERIALS_HELP}

Options:
  --space DIR      the space (default: the current directory)
  --all            every grant, whatever space it is for

With --json: {"materials": [{"id", "identity", "path", "type", "bytes", "spaces", "state", …}], "revision"}.`,
  options: { space: { type: 'string' }, all: { type: 'boolean' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const client = await context.client();
    const result = await client.request(
      'materials.list',
      values.all === true ? {} : { space: spaceOf(context, values.space) },
    );
    if (context.json) writeJson(context.stdout, result);
    else writeMaterials(context, result.materials);
    return 0;
  },
});

const materialsRemove = defineCommand({
  words: ['materials', 'remove'],
  summary: 'withdraw the grant of an outside material (the file is untouched)',
  usage: 'materials remove ID',
  help: `Withdraws the grant of the material ID from every space it was granted to; the file itself is
not touched. ${MATERIALS_HELP}

Arguments:
  ID               the material's id (as in repa:material/ID)

With --json: {"removed", "revision"}.`,
  options: {},
  positionals: [1, 1],
  async run(context, args) {
    const id = (args[0] as string).replace(/^repa:material\//u, '');
    const client = await context.client();
    const result = await client.request('materials.remove', { id });
    if (context.json) writeJson(context.stdout, result);
    else
      context.stdout.write(
        result.removed ? `removed repa:material/${id}\n` : `no material ${id}\n`,
      );
    return result.removed ? 0 : 1;
  },
});

/** `repa materials add|list|remove`: outside materials granted to spaces (spec R15, R54). */
export const materialsCommands: Command[] = [materialsList, materialsAdd, materialsRemove];
