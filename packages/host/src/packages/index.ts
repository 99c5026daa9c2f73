export {
  extensionTools,
  packageReport,
  packageResources,
  resourceDiagnostics,
  withoutRefusedExtensions,
} from './package-resources.js';
// Pi packages added, removed and listed: all of pi-packages.ts is the folder's to offer.
export * from './pi-packages.js';
