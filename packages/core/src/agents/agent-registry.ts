import { EventEmitter } from 'node:events';
import { existsSync, type FSWatcher, watch } from 'node:fs';
import { dirname } from 'node:path';
import type { AgentDefinition } from './agent-file.js';
import type { AgentRoot } from './agent-roots.js';
import { definitionFoldersSignature } from '../base/walk-definition-folders.js';
import { type AgentDiscovery, discoverAgents } from './discover-agents.js';

interface RegistryEvents {
  /** The definitions on disk changed; carries the new discovery. */
  change: [AgentDiscovery];
}

/**
 * The agent definitions of one workspace, re-read when their files change (no restart).
 * `current()` compares the modification times of the roots and their `.md` files with the last
 * read and discovers again only when one moved (one stat per root and per file). `watch()` adds
 * fs.watch on the roots (or their nearest existing parent, so a root created later is seen) and
 * emits `change` whenever what is on disk differs from what was last announced.
 */
export class AgentRegistry extends EventEmitter<RegistryEvents> {
  private signature: string | undefined;
  private announced: string | undefined;
  private last: AgentDiscovery = { agents: [], entries: [] };
  private readonly watchers = new Map<string, FSWatcher>();
  private watching = false;

  constructor(readonly roots: readonly AgentRoot[]) {
    super();
  }

  current(): AgentDiscovery {
    const signature = this.computeSignature();
    if (signature !== this.signature) {
      this.last = discoverAgents(this.roots);
      this.signature = signature;
    }
    return this.last;
  }

  /** The usable definition of `name`, if any. */
  get(name: string): AgentDefinition | undefined {
    return this.current().agents.find((a) => a.name === name);
  }

  /** Starts watching the roots; `change` fires on each change of the definitions. Idempotent. */
  watch(): this {
    if (this.watching) return this;
    this.watching = true;
    this.announced = this.computeSignature();
    this.current();
    this.arm();
    return this;
  }

  close(): void {
    this.watching = false;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private onFsEvent(): void {
    if (!this.watching) return;
    this.arm();
    const signature = this.computeSignature();
    if (signature === this.announced) return;
    this.announced = signature;
    this.emit('change', this.current());
  }

  /** Watches each root that exists, else its nearest existing ancestor; drops watchers no longer needed. */
  private arm(): void {
    const wanted = new Set(this.roots.map((r) => nearestExisting(r.dir)).filter((d): d is string => d !== undefined));
    for (const root of this.roots) if (existsSync(root.dir)) wanted.add(dirname(root.dir));
    for (const [dir, w] of this.watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, () => this.onFsEvent());
        w.on('error', () => {
          w.close();
          this.watchers.delete(dir);
          this.onFsEvent();
        });
        this.watchers.set(dir, w);
      } catch {
        // Gone between the check and the watch: the next event (or current()) sees it.
      }
    }
  }

  private computeSignature(): string {
    return definitionFoldersSignature(this.roots, 'files');
  }
}

function nearestExisting(dir: string): string | undefined {
  let current = dir;
  for (;;) {
    if (existsSync(current)) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
