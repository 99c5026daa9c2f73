export { ContentStore, type ContentStoreOptions, type SaveOptions } from './content-store.js';
