import { z } from 'zod';
import { versionSchema } from '../common.js';
import { method } from '../method.js';
import { spaceParam } from './params.js';

/** A space path or `repa:` identity, as the content tools take it. */
const addressSchema = z.string().min(1).max(4096);

const folderEntrySchema = z.looseObject({
  name: z.string().describe('Its name.'),
  path: z
    .string()
    .describe("Its path relative to the space root (`/`-separated; a symlink's own path)."),
  folder: z.boolean().describe('Whether it is a folder (list it with `files.list`).'),
  size: z.number().int().nonnegative().optional().describe("A file's size in bytes."),
  document: z
    .boolean()
    .optional()
    .describe('True for a PDF, DOCX, EPUB or HTML file, read as its text with page markers.'),
  problem: z
    .string()
    .optional()
    .describe(
      'Why no path of the space names it, as opening it says (its name is not UTF-8, or holds a control character or a backslash); then `name` and `path` show the name escaped (`a\\nb.md`, `bad\\xFF.md`) and it cannot be opened or listed.',
    ),
});

const documentPartSchema = z.looseObject({
  line: z.number().int().positive().describe("The line (from 1) of the part's marker line."),
  title: z.string().optional().describe("The chapter's title, when it has one."),
  empty: z.boolean().optional().describe('True when the part has no text (a scanned page).'),
  failed: z.string().optional().describe('Why the part could not be read, when it could not.'),
  recognised: z
    .looseObject({
      engine: z.string().describe('The OCR engine and languages, e.g. `tesseract 5.3.0 (eng)`.'),
      confidence: z.number().describe("The engine's mean word confidence, 0 to 100."),
    })
    .optional()
    .describe('When the page had no text layer and its text was recognised by OCR (spec R120).'),
  unrecognised: z
    .string()
    .optional()
    .describe('Why a page without a text layer was not recognised (no OCR engine or language).'),
});

/** The `files.*` methods: the space's files for a reader, with the space's rules (spec R60, R74). */
export const filesMethods = {
  'files.list': method({
    description:
      'One folder of a space, as the `ls` tool sees it: `.repa` never listed, symlinks leaving the space not followed, `.gitignore`d paths, `node_modules` and `.git` skipped; readable in a space not trusted yet.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        path: z
          .string()
          .max(4096)
          .optional()
          .describe('The folder, relative to the space root; default: the root.'),
        limit: z
          .number()
          .int()
          .positive()
          .max(1000)
          .optional()
          .describe('The most entries to give (default and most: 1000).'),
      }),
    result: () =>
      z.looseObject({
        folder: z
          .string()
          .describe('The folder listed, relative to the space root (`""`: the root).'),
        entries: z
          .array(folderEntrySchema)
          .describe('Its entries by name (case-insensitive), folders and files mixed.'),
        more: z
          .number()
          .int()
          .nonnegative()
          .describe('How many entries were left out past `limit`.'),
        ignored: z
          .number()
          .int()
          .nonnegative()
          .describe('Entries skipped because `.gitignore`, `node_modules` or `.git` covers them.'),
        symlinksLeaving: z
          .number()
          .int()
          .nonnegative()
          .describe('Symlinks not followed because they leave the space (or point into `.repa`).'),
      }),
  }),
  'files.read': method({
    description:
      "A file's text for the reader, as the `read` tool reads it: text as it is, a PDF, DOCX, EPUB or HTML file as its text with a marker line before each page or chapter; other binary files are refused (`unsupported_content`).",
    params: () =>
      z.strictObject({
        space: spaceParam,
        path: addressSchema.describe(
          'A space path (relative to the root) or an identity (`repa:document/<id>`, or `repa:material/<id>` for a granted outside material).',
        ),
      }),
    result: () =>
      z.looseObject({
        path: z
          .string()
          .describe("The file's path relative to the space root, or the material's identity."),
        identity: z
          .string()
          .describe("The file's identity (`repa:document/…` or `repa:material/…`)."),
        version: versionSchema.describe('The version read (sha256 of the bytes).'),
        bytes: z.number().int().nonnegative().describe("The file's size in bytes."),
        text: z
          .string()
          .describe('The text (the first `maxChars` characters at most, whole lines).'),
        lines: z.number().int().nonnegative().describe('How many lines the whole text has.'),
        truncated: z
          .boolean()
          .describe(
            'True when `text` is only the first lines (the reader bound: 1,000,000 characters).',
          ),
        document: z
          .looseObject({
            format: z.enum(['pdf', 'docx', 'epub', 'html', 'image']).describe('Its format.'),
            unit: z
              .enum(['page', 'chapter'])
              .optional()
              .describe('What a part is; absent for a document of one part (DOCX, HTML).'),
            parts: z.array(documentPartSchema).describe('Where each part begins, in order.'),
          })
          .optional()
          .describe('For a document read as its text: its format and parts (pages or chapters).'),
      }),
  }),
} as const;
