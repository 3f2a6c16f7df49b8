export { webFetchTool } from './web-fetch.js';
export { webSearchTool } from './web-search.js';
export { createWebSearcher, WebSearchError, type SearchAnswer, type WebSearcher } from './web-searcher.js';
export { searchBackendConfigs, WebSearchSettingSchema } from './search-config.js';
export { isPublicAddress } from './address-policy.js';
export { readablePage, type ReadablePage } from './readable-page.js';
export type { SearchBackendConfig, SearchResult } from './search-backend.js';
export type { WebFetchSettings } from './web-services.js';
