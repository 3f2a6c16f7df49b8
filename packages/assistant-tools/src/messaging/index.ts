export { whatsappLatestTool, whatsappMessagesTool, whatsappSearchTool, whatsappSendTool } from './whatsapp-tools.js';
export type { BridgeCall, MessagingBridge } from './messaging-bridge.js';
