import { z } from 'zod';

/**
 * The method, on the daemon's unix socket only, that opens the web listener and answers its URL
 * (`repa web`). Contract: an internal step, not a v1 method; over TCP it does not exist.
 */
export const WEB_OPEN_METHOD = 'repa.web.open';

/** The params of {@link WEB_OPEN_METHOD}: the port on 127.0.0.1, 0 for any free one. */
export const webOpenParamsSchema = z.strictObject({ port: z.number().int().min(0).max(65535) });
