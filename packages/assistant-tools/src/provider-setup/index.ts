export { configureProviderTool } from './configure-provider.js';
