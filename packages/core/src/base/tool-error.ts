/** A tool failure meant for the model: it becomes an `isError` result with this message. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
