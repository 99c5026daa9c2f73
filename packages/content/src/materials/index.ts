// Outside materials granted to spaces: all of material-grants.ts is the folder's to offer.
export * from './material-grants.js';
