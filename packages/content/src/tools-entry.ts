// The Pi tools over the store (`@repa/content/tools`): content's only entry that loads Pi. The
// store itself is the root entry (`@repa/content`), which imports no Pi.
export {
  type ContentBashDetails,
  checkSandbox,
  createSandboxedBashTool,
  type SandboxedBashToolOptions,
} from './bash/index.js';
export {
  type ApprovalAsk,
  type ContentEditDetails,
  type ContentFindDetails,
  type ContentGrepDetails,
  type ContentLsDetails,
  type ContentPatchDetails,
  type ContentReadDetails,
  type ContentSaveDetails,
  type ContentSearchDetails,
  type ContentToolsOptions,
  createContentTools,
  type ToolApprovals,
} from './tools/index.js';
