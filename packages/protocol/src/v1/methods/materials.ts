import { z } from 'zod';
import { spaceRootSchema } from '../common.js';
import { method } from '../method.js';

/** A material id: the `<id>` of `repa:material/<id>`. */
const materialIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/u);

/** The revision of the grants file: the sha256 of its bytes, or null when there is none yet. */
const grantsRevisionSchema = z
  .string()
  .nullable()
  .describe('The grants file revision (sha256 of its bytes); null when there is no file yet.');

/** One granted material (`materials.*`). */
export const materialSchema = z
  .looseObject({
    id: materialIdSchema.describe('Its id.'),
    identity: z.string().describe('`repa:material/<id>`: how the model and `--attach` address it.'),
    path: z.string().describe("The outside file's absolute path."),
    title: z.string().optional().describe("The learner's title, when given."),
    type: z
      .enum(['pdf', 'docx', 'epub', 'html', 'text'])
      .optional()
      .describe('What it was when granted (absent for a hand-written grant).'),
    bytes: z.number().int().nonnegative().optional().describe('Its size now, when it is there.'),
    spaces: z
      .array(z.string())
      .nullable()
      .describe('The space roots it is granted to; null: every space.'),
    state: z
      .enum(['ok', 'vanished', 'changed'])
      .describe('`vanished`: no regular file there now; `changed`: it is no longer of its `type`.'),
    currentType: z
      .string()
      .optional()
      .describe('With `changed`: what it is now (a type, or a format Repa cannot read).'),
  })
  .meta({
    id: 'Material',
    description:
      'An outside file granted read-only to spaces (spec R15, R54), read as `repa:material/<id>`.',
  });

/** The `materials.*` methods: outside materials granted in `repa-content-access.json`. */
export const materialsMethods = {
  'materials.list': method({
    description:
      'The granted outside materials with their state now; with `space`, those that space may read.',
    params: () =>
      z.strictObject({
        space: spaceRootSchema.optional().describe('Only the materials granted to this space.'),
      }),
    result: () =>
      z.looseObject({
        materials: z.array(materialSchema).describe('The materials, in id order.'),
        revision: grantsRevisionSchema,
      }),
  }),
  'materials.add': method({
    description:
      'Grants an outside file (PDF, DOCX, EPUB, HTML or text) read-only to one space or to every space.',
    params: () =>
      z.strictObject({
        path: z.string().min(1).describe('The file (an absolute path on the server).'),
        id: materialIdSchema.optional().describe('Its id; default: made from its file name.'),
        title: z.string().min(1).max(300).optional().describe("The learner's title for it."),
        space: spaceRootSchema
          .optional()
          .describe('The space it is granted to (with `allSpaces` absent or false).'),
        allSpaces: z.boolean().optional().describe('Grant it to every space instead of `space`.'),
        expectedRevision: grantsRevisionSchema
          .optional()
          .describe('Refuse with `stale_version` unless the grants file is at this revision.'),
      }),
    result: () =>
      z.looseObject({
        material: materialSchema.describe('The material as granted now.'),
        revision: z.string().describe('The grants file revision after the change.'),
      }),
  }),
  'materials.remove': method({
    description: 'Withdraws the grant of a material (the file itself is untouched).',
    params: () =>
      z.strictObject({
        id: materialIdSchema.describe('The material.'),
        expectedRevision: grantsRevisionSchema
          .optional()
          .describe('Refuse with `stale_version` unless the grants file is at this revision.'),
      }),
    result: () =>
      z.looseObject({
        removed: z.boolean().describe('False when no material had this id.'),
        revision: grantsRevisionSchema,
      }),
  }),
} as const;
