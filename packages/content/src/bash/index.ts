export { checkSandbox } from './bash-sandbox.js';
export {
  type ContentBashDetails,
  createSandboxedBashTool,
  type SandboxedBashToolOptions,
} from './bash-tool.js';
