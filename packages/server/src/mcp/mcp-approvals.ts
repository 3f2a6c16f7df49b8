import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@tandem/core';

export const MCP_APPROVALS_FILE = 'mcp-approvals.json';

type Approvals = Record<string, Record<string, { fingerprint: string; by: string; at: string }>>;

/**
 * Which exact launch of each project MCP server a driver approved, per workspace (real path):
 * `<dataDir>/mcp-approvals.json`. A server whose launch no longer matches its fingerprint
 * needs approval again.
 */
export class McpApprovals {
  private readonly file: string;
  private data: Approvals;

  constructor(dataDir: string) {
    this.file = join(dataDir, MCP_APPROVALS_FILE);
    this.data = read(this.file);
  }

  isApproved(workspace: string, name: string, fingerprint: string): boolean {
    this.data = read(this.file);
    return this.data[workspace]?.[name]?.fingerprint === fingerprint;
  }

  approve(workspace: string, name: string, fingerprint: string, by: string, at: Date): void {
    this.data = read(this.file);
    this.data[workspace] = { ...this.data[workspace], [name]: { fingerprint, by, at: at.toISOString() } };
    writeFileAtomicSync(this.file, `${JSON.stringify(this.data, null, 2)}\n`);
  }
}

function read(file: string): Approvals {
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Approvals) : {};
  } catch {
    // A damaged file approves nothing: every project server asks again.
    return {};
  }
}
