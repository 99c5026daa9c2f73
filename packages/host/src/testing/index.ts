export { createFauxHost, type FauxHost, type FauxHostOptions } from './create-faux-host.js';
