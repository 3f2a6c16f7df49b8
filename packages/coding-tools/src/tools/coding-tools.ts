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
import { writeFileTool } from './write-file.js';
import type { AnyTool } from '@tandem/core';

/** The coding tools (files, search, edits, commands, jobs), in the order they are offered. A fresh array each call. */
export function codingTools(): AnyTool[] {
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
  ] as AnyTool[];
}
