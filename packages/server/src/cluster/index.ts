export { ClusterNode, type ClusterHost } from './cluster-node.js';
export { checkNodeId, DEFAULT_LEASE_MS, type ClusterOptions } from './cluster-options.js';
export { defaultNodeId, NODE_ID_FILE } from './node-id.js';
export { NODE_OFFLINE_CODE } from './offline-watch.js';
export { RedisUnreachableError } from './redis-connection.js';
