export { ContentStore, type ContentStoreOptions, type SaveOptions } from './content-store.js';
export { type InspectedFile, inspectSpaceFile } from './inspect-file.js';
