export { SecretStore, SECRET_KEY_FILE, SECRET_VALUES_FILE } from './secret-store.js';
