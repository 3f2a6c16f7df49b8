import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

/**
 * `yaml`'s parseDocument as the definition files (skills, agents, commands) read their front
 * matter, errors not prettified. The library (~70 modules) is loaded by the first file parsed,
 * not by every process that imports the engine: a server whose workspaces have no such files
 * never parses YAML, and `tandem serve` no longer loads it before it listens.
 */
export function parseYamlDocument(source: string): ReturnType<typeof Yaml.parseDocument> {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml.parseDocument(source, { prettyErrors: false });
}
