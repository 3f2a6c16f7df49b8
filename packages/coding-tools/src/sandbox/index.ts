export { createPathSandbox, type PathSandbox, type PathSandboxOptions } from './path-sandbox.js';
export { openVerified, readVerified, writeVerified, type OpenMode } from './safe-open.js';
export { realPathAllowingMissing } from './real-path.js';
export {
  SYSTEM_DIRECTORIES,
  CREDENTIAL_PATHS,
  PROTECTED_WORKSPACE_ENTRIES,
  systemDirectoryOf,
  credentialPathOf,
  protectedLocationOf,
  isWithin,
} from './protected-paths.js';
