import { existsSync, readFileSync } from 'node:fs';
import { extname, isAbsolute, join, resolve } from 'node:path';
import {
  RUN_IMAGES_MAX_INLINE_BYTES,
  type RunDelivery,
  type RunImage,
  type RunInput,
  type RunOverrides,
} from '@repa/protocol';
import { editsModeSchema, studyModeSchema, thinkingLevelSchema } from '@repa/protocol/schemas';
import { type CliContext, spacePathOf } from '../../cli-context.js';
import { usageError } from '../../usage-error.js';

/**
 * `--model`, `--thinking`, `--edits` and `--study-mode` as one-run overrides, or undefined when
 * none is given.
 */
export function runOverridesOf({
  model,
  thinking,
  edits,
  'study-mode': study,
}: {
  model?: string | undefined;
  thinking?: string | undefined;
  edits?: string | undefined;
  'study-mode'?: string | undefined;
}): RunOverrides | undefined {
  if (model !== undefined && model.trim() === '')
    throw usageError('--model is empty.', 'Pass provider/id, as listed by repa models.');
  let thinkingLevel: RunOverrides['thinkingLevel'];
  if (thinking !== undefined) {
    const parsed = thinkingLevelSchema.safeParse(thinking);
    if (!parsed.success) {
      throw usageError(
        `Unknown thinking level ${thinking}.`,
        `Pass one of ${thinkingLevelSchema.options.join(', ')}.`,
      );
    }
    thinkingLevel = parsed.data;
  }
  const mode = edits === undefined ? undefined : editsModeSchema.safeParse(edits);
  if (mode !== undefined && !mode.success) {
    throw usageError(
      `Unknown --edits ${edits}.`,
      `Pass one of ${editsModeSchema.options.join(', ')}.`,
    );
  }
  const studyMode = study === undefined ? undefined : studyModeSchema.safeParse(study);
  if (studyMode !== undefined && !studyMode.success) {
    throw usageError(
      `Unknown --study-mode ${study}.`,
      `Pass one of ${studyModeSchema.options.join(', ')}.`,
    );
  }
  if (model === undefined && thinkingLevel === undefined && !mode && !studyMode) return undefined;
  return {
    ...(model ? { model } : {}),
    ...(thinkingLevel ? { thinkingLevel } : {}),
    ...(mode ? { edits: mode.data } : {}),
    ...(studyMode ? { studyMode: studyMode.data } : {}),
  };
}

const IMAGE_TYPES: Record<string, (RunImage & { kind: 'data' })['mimeType']> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** The comma-separated file list of option `--name`, or none. */
function filesOf(name: 'image' | 'attach', text: string | undefined): string[] {
  if (text === undefined) return [];
  const files = text.split(',').map((file) => file.trim());
  if (files.some((file) => file === '')) {
    throw usageError(`--${name} names an empty file.`, `Pass --${name} FILE[,FILE…].`);
  }
  return files;
}

/**
 * The run's input: the text, `--image` files (inside the space sent by path and read by the
 * daemon, outside it sent inline within `RUN_IMAGES_MAX_INLINE_BYTES` in all; the daemon checks
 * they are images) and `--attach` documents, each a space path as {@link spacePathOf} reads it
 * (the daemon refuses one outside the space).
 */
export function runInputOf(
  context: CliContext,
  text: string,
  values: { image?: string | undefined; attach?: string | undefined },
  space: string,
) {
  const input: RunInput = { type: 'text', text };
  let inlineBytes = 0;
  const images = filesOf('image', values.image).map((file): RunImage => {
    const mimeType = IMAGE_TYPES[extname(file).toLowerCase()];
    if (!mimeType) {
      throw usageError(
        `${file} is not a PNG, JPEG, GIF or WebP file (by its extension).`,
        'Pass an image file ending in .png, .jpg, .jpeg, .gif or .webp.',
      );
    }
    const inSpace = spacePathOf(context, space, file);
    if (!isAbsolute(inSpace) && !inSpace.startsWith('..') && existsSync(join(space, inSpace))) {
      return { kind: 'file', path: inSpace };
    }
    const absolute = resolve(context.cwd, file);
    let bytes: Buffer;
    try {
      bytes = readFileSync(absolute);
    } catch (error) {
      throw usageError(`Cannot read ${file}: ${(error as Error).message}`, 'Check the path.');
    }
    inlineBytes += bytes.length;
    if (inlineBytes > RUN_IMAGES_MAX_INLINE_BYTES) {
      throw usageError(
        `The images outside the space exceed ${RUN_IMAGES_MAX_INLINE_BYTES / 1024 / 1024} MiB in all (sent inline).`,
        'Move the larger images into the space (they are then sent by path), or send fewer.',
      );
    }
    return { kind: 'data', data: bytes.toString('base64'), mimeType };
  });
  const attachments = filesOf('attach', values.attach).map((file) => ({
    path: spacePathOf(context, space, file),
  }));
  if (images.length > 0) input.images = images;
  if (attachments.length > 0) input.attachments = attachments;
  return input;
}

/** `--queue`, `--steer` or `--follow-up` as the run's delivery (at most one of them). */
export function deliveryOf(
  values: Partial<Record<'queue' | 'steer' | 'follow-up', boolean>>,
): RunDelivery | undefined {
  const chosen = (
    [
      ['queue', 'queue'],
      ['steer', 'steer'],
      ['follow-up', 'followUp'],
    ] as const
  ).filter(([flag]) => values[flag] === true);
  if (chosen.length > 1) {
    throw usageError(
      `${chosen.map(([flag]) => `--${flag}`).join(' and ')} exclude each other.`,
      'Pass one of --queue, --steer and --follow-up.',
    );
  }
  return chosen[0]?.[1];
}

/** The request text: the arguments joined by spaces, or standard input for `-` or none over a pipe. */
export async function requestText(context: CliContext, args: string[]): Promise<string> {
  const fromStdin =
    (args.length === 1 && args[0] === '-') || (args.length === 0 && !context.stdin.isTTY);
  if (args.length === 0 && !fromStdin) {
    throw usageError(
      'Missing the request text.',
      'Pass it: repa run TEXT, or pipe it: echo TEXT | repa run.',
    );
  }
  let text = args.join(' ');
  if (fromStdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of context.stdin) chunks.push(Buffer.from(chunk as Buffer));
    text = Buffer.concat(chunks).toString('utf8');
  }
  if (text.trim() === '') {
    throw usageError(
      fromStdin ? 'The request text on standard input is empty.' : 'The request text is empty.',
      'Pass the request: repa run TEXT, or pipe it: echo TEXT | repa run.',
    );
  }
  return fromStdin ? text.replace(/\s+$/, '') : text.trim();
}
