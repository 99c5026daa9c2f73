export {
  createRepaClient,
  type RepaClient,
  type RepaClientMethod,
  type RepaClientOptions,
  type RepaClientTarget,
} from './client/create-repa-client.js';
export { TCP_AUTH_METHOD, tcpAuthParamsSchema } from './client/tcp-auth.js';
export {
  isRepaErrorCode,
  REPA_ERROR_CODES,
  REPA_ERROR_FIXES,
  RepaError,
  type RepaErrorCode,
  type RepaErrorOptions,
  type WireError,
  wireErrorSchema,
} from './errors/repa-error.js';
export { parseToolErrorText, toolErrorText } from './errors/tool-error-text.js';
export * from './v1/common.js';
export * from './v1/content.js';
export {
  DEFAULT_MAX_FRAME_BYTES,
  type DecodedFrame,
  encodeFrame,
  FrameDecoder,
  type FrameDecoderOptions,
  MAX_MESSAGE_DEPTH,
} from './v1/framing.js';
export {
  errorResponse,
  invalidRequestFromZod,
  type JsonRpcRequest,
  type JsonRpcResponse,
  jsonRpcCodeFor,
  jsonRpcErrorSchema,
  jsonRpcRequestSchema,
  jsonRpcResponseSchema,
} from './v1/json-rpc.js';
export { type V1JsonSchemas, v1JsonSchemas } from './v1/json-schema.js';
export * from './v1/methods.js';
export * from './v1/prompt.js';
export * from './v1/runs.js';
export * from './v1/sessions.js';
export * from './v1/settings.js';
