export { Identities } from './identities.js';
