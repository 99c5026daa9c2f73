export { type ChooseModelOptions, chooseModel } from './choose-model.js';
export { connectionOf } from './credential-source.js';
export { answerEveryRequest, fauxModelChoice } from './faux-model-choice.js';
export { findModel } from './find-model.js';
export {
  type LoginProviderOptions,
  type LoginResult,
  type LoginStep,
  loginProvider,
  logoutProvider,
} from './login-provider.js';
export type { ModelChoice } from './model-choice.js';
export { modelErrorOf, noCredentialsError } from './model-errors.js';
export {
  type DecidedModel,
  type ModelRequest,
  PiModels,
  type PiModelsOptions,
  type PiModelsStatus,
} from './pi-models.js';
