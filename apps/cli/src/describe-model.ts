import { OFFLINE_MODEL_ID } from '@repa/protocol';

/** How a model is named in every output; the offline responder says what it is. */
export function describeModel(label: string | undefined): string {
  if (label === undefined) return 'unknown (the daemon was not started by repa; see its output)';
  return label === OFFLINE_MODEL_ID
    ? `${OFFLINE_MODEL_ID} (local responder, no language model)`
    : label;
}
