export { parsePatch } from './parse-patch.js';
export { planPatch } from './plan-patch.js';
