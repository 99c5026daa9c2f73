export { fauxModelChoice } from '../models/index.js';
export { createFauxHost, type FauxHost, type FauxHostOptions } from './create-faux-host.js';
export { createFauxModel } from './create-faux-model.js';
export { createScriptedModel } from './create-scripted-model.js';
