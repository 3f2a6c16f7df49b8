import type { AnyTool } from '@tandem/core';
import { getCalendarEventsTool } from './calendar/index.js';
import { cancelRoutineTool, createRoutineTool, listRoutinesTool } from './routines/index.js';
import { whatsappLatestTool, whatsappMessagesTool, whatsappSearchTool, whatsappSendTool } from './messaging/index.js';
import { configureProviderTool } from './provider-setup/index.js';
import { selfCloneTool } from './self-clone.js';
import { webFetchTool, webSearchTool } from './web/index.js';

/** The assistant's tools (self-clone, web, calendar, routines, WhatsApp, provider set-up), in the order they are offered. A fresh array each call. */
export function assistantTools(): AnyTool[] {
  return [
    selfCloneTool,
    webSearchTool,
    webFetchTool,
    getCalendarEventsTool,
    createRoutineTool,
    listRoutinesTool,
    cancelRoutineTool,
    whatsappSendTool,
    whatsappSearchTool,
    whatsappLatestTool,
    whatsappMessagesTool,
    configureProviderTool,
  ] as AnyTool[];
}
