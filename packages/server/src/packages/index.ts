export { ExternalPackages, type PackageChange, type PackageListing } from './external-packages.js';
export { PackageRegistry, PACKAGES_FILE, PACKAGES_DIR, SHIMS_DIR, type PackageEntry, type PackageInstall } from './package-registry.js';
export { parsePackageSource, defaultPackageName, checkPackageName, PACKAGE_NAME, type PackageSource } from './package-source.js';
export { scanPackage, findSymlinks, type PackageScan, type PackageBin, type PackageKind } from './package-scan.js';
export { shimScript, writeShims, removeShims } from './package-shims.js';
