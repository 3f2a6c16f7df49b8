import type { AnyTool } from './define.js';
import { deleteFileTool } from './delete-file.js';
import { getFileInfoTool, listDirectoryTool } from './directory-tools.js';
import { editFileTool } from './edit-file.js';
import { grepFilesTool } from './grep-files.js';
import { readJobOutputTool, stopJobTool } from './job-tools.js';
import { deleteLinesTool, insertLineTool } from './line-tools.js';
import { readEnvTool } from './read-env.js';
import { readFileTool } from './read-file.js';
import { runCommandTool } from './run-command.js';
import { searchFilesTool } from './search-files.js';
import { selfCloneTool } from './self-clone.js';
import { getCalendarEventsTool } from './calendar/index.js';
import { configureProviderTool } from './provider-setup/index.js';
import { whatsappLatestTool, whatsappMessagesTool, whatsappSearchTool, whatsappSendTool } from './messaging/index.js';
import { cancelRoutineTool, createRoutineTool, listRoutinesTool } from './routines/index.js';
import { webFetchTool, webSearchTool } from './web/index.js';
import { writeFileTool } from './write-file.js';

/** Every built-in tool, in the order they are offered to the model. A fresh array each call. */
export function builtinTools(): AnyTool[] {
  return [
    readFileTool,
    writeFileTool,
    editFileTool,
    insertLineTool,
    deleteLinesTool,
    deleteFileTool,
    listDirectoryTool,
    getFileInfoTool,
    searchFilesTool,
    grepFilesTool,
    runCommandTool,
    readJobOutputTool,
    stopJobTool,
    readEnvTool,
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
