// A second entry of the same build for processes that need only the store and its rewinds (the
// crash tests' child processes): without the tools, it loads neither Pi nor the document readers.
export { rewindGroup } from './rewind/index.js';
export { ContentStore } from './store/index.js';
