// Generates the tool table from @tandem/core's tool registry.
export async function toolsReference() {
  const core = await import('@tandem/core');
  const lines = [
    '# Built-in tools',
    '',
    'Generated from the tool registry in `@tandem/core`. Every tool goes through the same pipeline: schema validation → path sandbox / command blacklist → permission policy → rate limiter → execution → audit record.',
    '',
    '| tool | danger | read-only | description |',
    '|---|---|---|---|',
  ];
  const tools = typeof core.builtinTools === 'function' ? core.builtinTools() : [];
  if (tools.length === 0) throw new Error('docs: @tandem/core exports no builtinTools()');
  for (const tool of tools) {
    const danger = typeof tool.danger === 'function' ? 'by arguments' : tool.danger;
    const description = tool.description.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
    lines.push(`| \`${tool.name}\` | ${danger} | ${tool.readOnly ? 'yes' : 'no'} | ${description} |`);
  }
  return lines.join('\n') + '\n';
}
