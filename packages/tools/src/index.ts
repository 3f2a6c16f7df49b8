// The built-in tool list: the tool packages put together, above all of them.
export { builtinTools } from './builtin-tools.js';
