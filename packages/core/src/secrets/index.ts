export { maskSecrets, maskedValue, looksLikeSecretValue, type MaskOptions } from './mask-secrets.js';
export { isSecretName, TOKEN_PATTERNS, type TokenPattern } from './secret-patterns.js';
export { EnvSecrets, type EnvSecret } from './env-secrets.js';
