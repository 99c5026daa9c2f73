export {
  extensionTools,
  packageReport,
  packageResources,
  resourceDiagnostics,
  withoutRefusedExtensions,
} from './package-resources.js';
export {
  addPiPackage,
  listPiPackages,
  type PackageChange,
  type PackagesListing,
  type PackagesScope,
  removePiPackage,
} from './pi-packages.js';
