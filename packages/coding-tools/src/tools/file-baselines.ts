import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import fs from 'node:fs/promises';
import { type FileBaselines, ToolError } from '@tandem/core';

interface Baseline {
  sha256: string;
  mtimeMs: number | undefined;
}

/** Read-before-write is refused with this error; `reason` says which case. */
export class StaleFileError extends ToolError {
  constructor(
    readonly reason: 'not_read' | 'stale' | 'deleted',
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Read-before-write bookkeeping for one session (requirements A8). A read records the content hash and
 * mtime; before an edit, `assertFresh` compares with the file on disk. The hash decides (an mtime
 * can repeat within its resolution, or be set back); the mtime is kept for diagnostics. A
 * successful write records the new content, so consecutive edits need no re-read. Each session
 * has its own object, so a second session editing the same file after the first changed it is
 * told it is stale.
 */
export function createFileBaselines(): FileBaselines {
  const baselines = new Map<string, Baseline>();

  function record(absPath: string, content: Buffer | string): void {
    let mtimeMs: number | undefined;
    try {
      mtimeMs = statSync(absPath).mtimeMs;
    } catch {
      mtimeMs = undefined;
    }
    baselines.set(absPath, { sha256: sha256(content), mtimeMs });
  }

  return {
    recordRead: record,
    recordWrite: record,
    async assertFresh(absPath: string): Promise<void> {
      const baseline = baselines.get(absPath);
      if (!baseline) {
        throw new StaleFileError('not_read', absPath, `you have not read ${absPath} in this session; read it first (read_file), then edit it`);
      }
      let current: Buffer;
      try {
        current = await fs.readFile(absPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new StaleFileError('deleted', absPath, `${absPath} was deleted since you read it; check the directory again before writing`);
        }
        throw error;
      }
      if (sha256(current) !== baseline.sha256) {
        throw new StaleFileError('stale', absPath, `${absPath} changed since you read it (stale); read it again before editing`);
      }
    },
  };
}
