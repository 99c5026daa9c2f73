export { IdentityLedger } from './identities.js';
