import type { ApprovalMode } from '@tandem/shared';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';

/** What the index keeps per session; everything else lives in the session's event log. */
export interface SessionMeta {
  id: string;
  title: string;
  cwd: string;
  model: string;
  createdAt: string;
  /** The approval mode; absent in indexes written before modes existed (read as `ask`). */
  mode?: ApprovalMode;
  /** Search only: the model is offered web_search alone. */
  searchOnly?: boolean;
}

interface IndexData {
  sessions: SessionMeta[];
}

/**
 * The session metadata index (`<dataDir>/sessions.json`), small state kept in lowdb. It is
 * written only when a session is created or its metadata changes, never per event.
 */
export class SessionIndex {
  private readonly db: Low<IndexData>;

  constructor(readonly path: string) {
    this.db = new Low<IndexData>(new JSONFile<IndexData>(path), { sessions: [] });
  }

  async load(): Promise<SessionMeta[]> {
    await mkdir(dirname(this.path), { recursive: true });
    await this.db.read();
    if (!Array.isArray(this.db.data?.sessions)) this.db.data = { sessions: [] };
    return this.db.data.sessions.filter(isSessionMeta);
  }

  async remove(id: string): Promise<void> {
    await this.db.update((data) => {
      data.sessions = data.sessions.filter((s) => s.id !== id);
    });
  }

  async upsert(meta: SessionMeta): Promise<void> {
    await this.db.update((data) => {
      const i = data.sessions.findIndex((s) => s.id === meta.id);
      if (i >= 0) data.sessions[i] = meta;
      else data.sessions.push(meta);
    });
  }
}

function isSessionMeta(value: unknown): value is SessionMeta {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['id', 'title', 'cwd', 'model', 'createdAt'].every((k) => typeof v[k] === 'string');
}
