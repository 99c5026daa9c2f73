import { z } from 'zod';

/** The only protocol version this package speaks. */
export const PROTOCOL_VERSION = 'v1';

/** Every protocol version a v1 server accepts in `initialize`. */
export const SUPPORTED_PROTOCOL_VERSIONS = [PROTOCOL_VERSION] as const;

/** An opaque identifier (session, run, request, operation). */
export const idSchema = z.string().min(1).max(200);

/** An absolute path of a space's root folder on the server's machine. */
export const spaceRootSchema = z
  .string()
  .min(1)
  .describe("An absolute path of a space's root folder on the server's machine.");

/** ISO-8601 timestamp (RFC 3339 `date-time`, e.g. `2026-01-02T03:04:05.678Z`). */
export const timestampSchema = z.string().min(1).meta({ format: 'date-time' });

/** A content version: the lowercase hex sha256 of a file's bytes. */
export const versionSchema = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest');
