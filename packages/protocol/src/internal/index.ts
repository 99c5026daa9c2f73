// Server-side transport of protocol v1, for `@repa/application` only (`@repa/protocol/internal`).
// Not part of the public API: it may change in any release.

export { TCP_AUTH_METHOD } from '../client/tcp-auth.js';
export { WEB_OPEN_METHOD } from '../client/web-open.js';
export {
  DEFAULT_MAX_FRAME_BYTES,
  type DecodedFrame,
  encodeFrame,
  FrameDecoder,
  type FrameDecoderOptions,
  MAX_MESSAGE_DEPTH,
} from '../v1/framing.js';
export {
  errorResponse,
  JSON_RPC_ERROR_CODES,
  type JsonRpcResponse,
  jsonRpcCodeFor,
} from '../v1/json-rpc.js';
export type { JsonRpcRequest } from '../v1/wire-types.generated.js';
