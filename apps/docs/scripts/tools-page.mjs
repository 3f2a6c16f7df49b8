// Generates the tool table from the built-in tool list (@tandem/tools), the engine (@tandem/core) and
// the command blacklist (@tandem/coding-tools).
export async function toolsReference() {
  const core = await import('@tandem/core');
  const coding = await import('@tandem/coding-tools');
  const { builtinTools } = await import('@tandem/tools');
  const lines = [
    '# Built-in tools',
    '',
    'Generated from the built-in tool list in `@tandem/tools`. Every tool goes through the same pipeline: schema validation → path sandbox / command blacklist → permission policy → rate limiter → execution → audit record.',
    '',
    '| tool | danger | read-only | description |',
    '|---|---|---|---|',
  ];
  const tools = typeof builtinTools === 'function' ? builtinTools() : [];
  if (tools.length === 0) throw new Error('docs: @tandem/tools exports no builtinTools()');
  for (const tool of tools) {
    const danger = typeof tool.danger === 'function' ? 'by arguments' : tool.danger;
    const description = tool.description.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
    lines.push(`| \`${tool.name}\` | ${danger} | ${tool.readOnly ? 'yes' : 'no'} | ${description} |`);
  }
  lines.push(...orchestrationSection(core));
  const patterns = typeof coding.blacklistPatterns === 'function' ? coding.blacklistPatterns() : [];
  if (patterns.length === 0) throw new Error('docs: @tandem/coding-tools exports no blacklistPatterns()');
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

/** The commander's orchestration tools, from the same definitions the engine uses (a runner that runs nothing). */
function orchestrationSection(core) {
  if (typeof core.createOrchestrationTools !== 'function') throw new Error('docs: @tandem/core exports no createOrchestrationTools()');
  const tools = core.createOrchestrationTools({ runner: { runAgent: async () => ({ answer: '' }), handOff: async () => {} }, agents: () => [] });
  const lines = [
    '',
    '## Orchestration tools',
    '',
    "Only the commander has these (see [Multi-agent sessions](multi-agent.html)): `run_worker` always, `dispatch_to` once an agent is defined, `hand_off_to` once an interactive one is. A dispatched agent's or worker's own tool calls pass the same pipeline as above.",
    '',
    '| tool | arguments | read-only | description |',
    '|---|---|---|---|',
  ];
  for (const tool of tools) {
    const spec = core.toToolSpec(tool);
    const required = new Set(spec.parameters.required ?? []);
    const args = Object.keys(spec.parameters.properties ?? {})
      .map((name) => `\`${name}${required.has(name) ? '' : '?'}\``)
      .join(', ');
    const description = tool.description.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
    lines.push(`| \`${tool.name}\` | ${args} | ${tool.readOnly ? 'yes' : 'no'} | ${description} |`);
  }
  return lines;
}
