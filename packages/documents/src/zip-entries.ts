import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { ExtractionFailure, type ExtractionRequest } from './extracted.ts';

/** Bytes handed to the unzipper at a time: a slice inflates to at most about 1,000 times this. */
const PUSH_BYTES = 16 * 1024;

/**
 * The entries of a ZIP archive that `wanted` names, inflated within the limits: an entry past
 * `maxStreamBytes`, or all of them together past `maxInflatedBytes`, is a decompression bomb
 * (`ExtractionFailure`), found while inflating (never from the sizes the archive claims). With
 * `keep: false` the entries are only measured. Throws `damaged` for an archive fflate cannot read.
 */
export function zipEntries(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limits: ExtractionRequest['limits'],
  keep = true,
): Map<string, Uint8Array> {
  const entries = new Map<string, Uint8Array>();
  let total = 0;
  let failure: unknown;
  const unzip = new Unzip((file) => {
    if (!wanted(file.name)) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (failure !== undefined) return;
      if (error) {
        failure = new ExtractionFailure('damaged', `the archive entry ${file.name} is damaged`);
        return;
      }
      size += chunk.length;
      total += chunk.length;
      if (size > limits.maxStreamBytes || total > limits.maxInflatedBytes) {
        failure = new ExtractionFailure(
          'decompression_bomb',
          `its archive inflates to more than ${size > limits.maxStreamBytes ? `${limits.maxStreamBytes} bytes in ${file.name}` : `${limits.maxInflatedBytes} bytes in all`} (a decompression bomb?)`,
        );
        file.terminate();
        return;
      }
      if (keep) chunks.push(chunk);
      if (final && keep) entries.set(file.name, joinChunks(chunks, size));
    };
    try {
      file.start();
    } catch {
      failure ??= new ExtractionFailure(
        'damaged',
        `the archive entry ${file.name} uses a compression Repa cannot read`,
      );
    }
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    for (let start = 0; start < bytes.length && failure === undefined; start += PUSH_BYTES) {
      const end = Math.min(bytes.length, start + PUSH_BYTES);
      unzip.push(bytes.subarray(start, end), end === bytes.length);
    }
  } catch {
    failure ??= new ExtractionFailure('damaged', 'it is not a readable ZIP archive');
  }
  if (failure !== undefined) throw failure;
  return entries;
}

function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}
