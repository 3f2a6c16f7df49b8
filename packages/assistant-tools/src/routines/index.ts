export { cancelRoutineTool, createRoutineTool, describeRoutine, listRoutinesTool } from './routine-tools.js';
