import {
  RUN_IMAGE_MAX_BYTES,
  RUN_IMAGE_MIME_TYPES,
  RUN_IMAGES_MAX_INLINE_BYTES,
  type RunImageData,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/** An image waiting in the composer, to be sent with the next request. */
interface PickedImage {
  id: number;
  name: string;
  mimeType: RunImageData['mimeType'];
  /** The bytes, base64. */
  data: string;
  bytes: number;
}

/** The most images one request carries (`run.submit`'s limit). */
const MAX_IMAGES = 8;
const MIME_TYPES: readonly string[] = RUN_IMAGE_MIME_TYPES;

/** A file's bytes as base64 (through a data URL, which the browser encodes natively). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

let nextId = 0;

/**
 * The images of the composer: pasted, dropped or picked; checked against the limits `run.submit`
 * sets (type, 4 MiB each, 8 and 5 MiB in all), with what was refused and why said through `onRefuse`.
 */
export function useComposerImages(onRefuse: (message: string) => void) {
  const [images, setImages] = useState<PickedImage[]>([]);

  const add = async (files: Iterable<File>) => {
    const added: PickedImage[] = [];
    let total = images.reduce((sum, image) => sum + image.bytes, 0);
    for (const file of files) {
      if (!MIME_TYPES.includes(file.type)) {
        onRefuse(`${file.name || 'That file'} is not a PNG, JPEG, GIF or WebP image.`);
        continue;
      }
      if (images.length + added.length >= MAX_IMAGES) {
        onRefuse(`A request carries at most ${MAX_IMAGES} images.`);
        break;
      }
      if (file.size > RUN_IMAGE_MAX_BYTES || total + file.size > RUN_IMAGES_MAX_INLINE_BYTES) {
        onRefuse(`${file.name || 'The image'} is too large: at most 4 MiB each, 5 MiB in all.`);
        continue;
      }
      total += file.size;
      added.push({
        id: nextId++,
        name: file.name || 'pasted image',
        mimeType: file.type as PickedImage['mimeType'],
        data: await base64Of(file),
        bytes: file.size,
      });
    }
    if (added.length > 0) setImages((now) => [...now, ...added]);
  };

  return {
    images,
    /** The images as `run.submit` takes them. */
    input: (): RunImageData[] =>
      images.map(({ mimeType, data }) => ({ kind: 'data', mimeType, data })),
    /** A paste with images adds them (text is pasted as usual). */
    onPaste(event: ClipboardEvent) {
      const files = [...(event.clipboardData?.files ?? [])].filter((file) =>
        file.type.startsWith('image/'),
      );
      if (files.length === 0) return;
      event.preventDefault();
      void add(files);
    },
    onDragOver(event: DragEvent) {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    },
    onDrop(event: DragEvent) {
      if (!event.dataTransfer?.files.length) return;
      event.preventDefault();
      void add(event.dataTransfer.files);
    },
    add,
    remove(id: number) {
      setImages((now) => now.filter((image) => image.id !== id));
    },
    clear() {
      setImages([]);
    },
  };
}

/** The composer's images and what changes them. */
export type ComposerImages = ReturnType<typeof useComposerImages>;

/** The composer's images with their Remove buttons, and the picker that adds more. */
export function ImageTray({
  images,
  onAdd,
  onRemove,
}: {
  images: readonly PickedImage[];
  onAdd: (files: Iterable<File>) => void;
  onRemove: (id: number) => void;
}) {
  return html`<div class="image-tray">
    ${
      images.length > 0
        ? html`<ul class="images" aria-label="Images sent with your message">
            ${images.map(
              (image) => html`<li key=${image.id} class="image-chip">
                <img alt="" src=${`data:${image.mimeType};base64,${image.data}`} />
                <span class="image-name">${image.name}</span>
                <button type="button" class="link remove-image" aria-label=${`Remove ${image.name}`} onClick=${() => onRemove(image.id)}>Remove</button>
              </li>`,
            )}
          </ul>`
        : ''
    }
    <label class="pick-images">
      Add images
      <input type="file" accept=${RUN_IMAGE_MIME_TYPES.join(',')} multiple onChange=${(
        event: Event,
      ) => {
        const input = event.target as HTMLInputElement;
        if (input.files) onAdd([...input.files]);
        input.value = '';
      }} />
    </label>
  </div>`;
}
