import type { Catalog } from './catalog.js';
import type { CatalogEntry } from './catalog-entry.js';

/**
 * Walks the models to try for one request: either an explicit list (the memory chain) or the
 * catalog's `fallback` links from the first model. A visited set ends cycles (A→B→A).
 */
export class FallbackChain {
  private readonly visited = new Set<string>();
  private readonly explicit: string[] | undefined;
  /** Set when the walk stopped because the next link pointed back at a model already tried. */
  cycleAt: string | undefined;

  constructor(
    private readonly catalog: Catalog,
    first: CatalogEntry,
    explicit?: readonly string[],
  ) {
    this.explicit = explicit ? explicit.filter((id) => id !== first.id) : undefined;
    this.visited.add(first.id);
  }

  /** The next model to try after `current`, or undefined when the chain is spent. */
  next(current: CatalogEntry): CatalogEntry | undefined {
    if (this.explicit) {
      while (this.explicit.length > 0) {
        const id = this.explicit.shift()!;
        if (this.visited.has(id)) continue;
        const entry = this.lookup(id);
        if (!entry) continue;
        this.visited.add(entry.id);
        return entry;
      }
      return undefined;
    }
    let link = current.fallback;
    while (link) {
      if (this.visited.has(link)) {
        this.cycleAt = link;
        return undefined;
      }
      const entry = this.lookup(link);
      this.visited.add(link);
      if (entry) return entry;
      link = undefined;
    }
    return undefined;
  }

  /** Every model `next` would still walk to after `current`, in order, without moving along the chain. */
  upcoming(current: CatalogEntry): CatalogEntry[] {
    const seen = new Set(this.visited);
    const out: CatalogEntry[] = [];
    if (this.explicit) {
      for (const id of this.explicit) {
        const entry = seen.has(id) ? undefined : this.lookup(id);
        if (entry && !seen.has(entry.id)) {
          seen.add(entry.id);
          out.push(entry);
        }
      }
      return out;
    }
    for (let link = current.fallback; link && !seen.has(link); ) {
      seen.add(link);
      const entry = this.lookup(link);
      if (!entry) break;
      out.push(entry);
      link = entry.fallback;
    }
    return out;
  }

  private lookup(id: string): CatalogEntry | undefined {
    try {
      return this.catalog.resolve(id).entry;
    } catch {
      return undefined;
    }
  }
}
