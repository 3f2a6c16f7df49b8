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
  const patterns = typeof core.blacklistPatterns === 'function' ? core.blacklistPatterns() : [];
  if (patterns.length === 0) throw new Error('docs: @tandem/core exports no blacklistPatterns()');
  lines.push(
    '',
    '## Command blacklist',
    '',
    `Every \`run_command\` is parsed into segments (a quote-aware shell lexer; \`bash -c\`, \`sh -c\`, \`eval\`, \`$(…)\`, backticks, brace expansion, \`cd\` and wrapper commands such as \`env\`, \`nice\`, \`timeout\`, \`xargs\` are looked through) and checked against these ${patterns.length} patterns **before** any permission decision, so no stored approval can unlock them. The \`unverifiable\` rows are the classes refused because the parser cannot resolve them to literal text (see [Safety](safety.html#command-blacklist) for where the line is). A refused command returns an error result naming the category and is never executed.`,
    '',
    '| category | pattern | why |',
    '|---|---|---|',
  );
  for (const p of patterns) lines.push(`| ${p.category} | \`${p.pattern.replace(/\|/g, '\\|')}\` | ${p.why} |`);
  return lines.join('\n') + '\n';
}
