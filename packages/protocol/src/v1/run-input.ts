import { z } from 'zod';

/** The image MIME types a run's input may carry. */
export const RUN_IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** The largest image a run's input may carry, in bytes (decoded). */
export const RUN_IMAGE_MAX_BYTES = 4 * 1024 * 1024;

const imageData = {
  kind: z.literal('data').describe("The image's kind: inline bytes."),
  data: z
    .string()
    .min(1)
    .max(Math.ceil(RUN_IMAGE_MAX_BYTES / 3) * 4 + 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .describe('The image bytes, base64-encoded (at most 4 MiB decoded).'),
  mimeType: z
    .enum(RUN_IMAGE_MIME_TYPES)
    .describe("The image's MIME type: `image/png`, `image/jpeg`, `image/gif` or `image/webp`."),
};
const imageFile = {
  kind: z.literal('file').describe("The image's kind: a file of the space."),
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      'A space path (relative to the root) or identity of an image file, read through the content store.',
    ),
};
/** The most inline image bytes one run's input may carry in all (decoded), so it fits in one frame. */
export const RUN_IMAGES_MAX_INLINE_BYTES = 5 * 1024 * 1024;

/** Decoded bytes of the inline images, from their base64 lengths. */
function inlineBytes(images: readonly { kind: string; data?: string }[]): number {
  let total = 0;
  for (const image of images) {
    if (image.kind === 'data' && image.data !== undefined) {
      const padding = image.data.endsWith('==') ? 2 : image.data.endsWith('=') ? 1 : 0;
      total += Math.floor((image.data.length * 3) / 4) - padding;
    }
  }
  return total;
}

/** One image of a run's input: inline base64 bytes, or an image file of the space. */
export const runImageSchema = z.discriminatedUnion('kind', [
  z.strictObject(imageData),
  z.strictObject(imageFile),
]);

/** A document of the space the user points the run at. */
export const runAttachmentSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      'A space path (relative to the root) or identity of a document (an outside material granted to the space: `repa:material/<id>`), read at run start as the read tool reads it (PDFs and other documents as their text).',
    ),
});

const textInput = {
  type: z.literal('text').describe("The input's kind: only `text` today."),
  text: z.string().min(1).max(1_000_000).describe("The user's request."),
  images: z
    .array(runImageSchema)
    .max(8)
    .refine((images) => inlineBytes(images) <= RUN_IMAGES_MAX_INLINE_BYTES, {
      message:
        'The inline images exceed 5 MiB in all; send larger images as {kind: "file", path} of the space.',
    })
    .optional()
    .describe(
      'Images sent with the request (at most 8, inline ones at most 5 MiB in all), given to the model as image content.',
    ),
  attachments: z
    .array(runAttachmentSchema)
    .max(20)
    .optional()
    .describe(
      'Documents of the space or granted materials attached to the request (at most 20), read when the run starts.',
    ),
};

/** A run's input: text, with optional images and attached documents of the space. */
export const runInputSchema = z.discriminatedUnion('type', [z.strictObject(textInput)]);

/** One image of a run's input as run records show it (inline bytes left out). */
export const runImageViewSchema = z.looseObject({
  kind: z
    .enum(['data', 'file'])
    .describe('`data` (sent inline) or `file` (an image file of the space).'),
  mimeType: z.string().optional().describe('The MIME type of an inline image.'),
  bytes: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('The size of an inline image in bytes.'),
  path: z.string().optional().describe('The space path or identity of an image file.'),
});

/** A run's input as the server reports it: open, like everything the server sends. */
export const runInputViewSchema = z
  .discriminatedUnion('type', [
    z.looseObject({
      type: textInput.type,
      text: textInput.text,
      images: z
        .array(runImageViewSchema)
        .optional()
        .describe(
          "The request's images as recorded (inline bytes are not repeated in run records).",
        ),
      attachments: textInput.attachments,
    }),
  ])
  .meta({ id: 'RunInput', description: "A run's input." });
