import type { Model } from '@earendil-works/pi-ai';
import type { ModelRuntime } from '@earendil-works/pi-coding-agent';

/** The model a host talks to, with Pi's runtime that reaches it. */
export interface ModelChoice {
  /** Pi's model runtime (discovery, auth, every model call). */
  modelRuntime: ModelRuntime;
  /** The model. */
  model: Model<string>;
  /** `provider/id`, shown to users. */
  label: string;
  /** True for the embedded offline responder (no language model, no network). */
  offline: boolean;
}
