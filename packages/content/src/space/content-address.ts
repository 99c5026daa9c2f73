import { randomUUID } from 'node:crypto';
import { RepaError } from '@repa/protocol';

/** The two kinds of objects a `repa:` identity names. */
export type ObjectKind = 'document' | 'material';

/** A parsed `repa:<kind>/<id>` identity. */
export interface ParsedIdentity {
  kind: ObjectKind;
  id: string;
  /** The identity as written, e.g. `repa:document/0f3c…`. */
  identity: string;
}

const IDENTITY = /^repa:(document|material)\/([A-Za-z0-9_-]{1,100})$/u;

/**
 * Parses an address that starts with `repa:`; returns `undefined` for anything else (a path).
 * Throws `invalid_request` for a malformed `repa:` address.
 */
export function parseIdentity(address: string): ParsedIdentity | undefined {
  if (!address.startsWith('repa:')) return undefined;
  const match = IDENTITY.exec(address);
  if (!match) {
    throw new RepaError('invalid_request', `${JSON.stringify(address)} is not a valid identity.`, {
      fix: 'Write identities as repa:document/<id> or repa:material/<id>.',
    });
  }
  return { kind: match[1] as ObjectKind, id: match[2] as string, identity: address };
}

/** A fresh identity for a new object of `kind`. */
export function newIdentity(kind: ObjectKind = 'document'): string {
  return `repa:${kind}/${randomUUID()}`;
}
