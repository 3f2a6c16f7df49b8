export { BridgeHost, BRIDGE_VARIABLE, type BridgeHostOptions } from './bridge-host.js';
export { bridgeSocketDir } from './bridge-dir.js';
export { BridgeRun, type BridgeRequest, type BridgeAnswer } from './bridge-run.js';
export { connectorCallTool, memorySearchTool, skillsListTool } from './bridge-tools.js';
