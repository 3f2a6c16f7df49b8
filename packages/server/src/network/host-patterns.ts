/**
 * config.json `sandbox.allowHosts` when it is not set: the common package registries, so
 * installing dependencies works without a question. Replace the list to change it (`[]` asks
 * for every host). Uploading needs a token, and tokens are never in a command's environment.
 */
export const DEFAULT_ALLOW_HOSTS: readonly string[] = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  'rubygems.org',
  'index.rubygems.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'api.nuget.org',
];

/**
 * A host as the proxy compares it: lower case, without the brackets of an IPv6 literal and
 * without a trailing dot.
 */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/**
 * Whether `host:port` is listed. An entry is a host (`pypi.org`), a wildcard for its subdomains
 * (`*.example.com`, not `example.com` itself), either with an optional `:PORT`
 * (`localhost:3000`); IPv6 literals in brackets (`[::1]:8080`).
 */
export function hostListed(host: string, port: number, patterns: readonly string[]): boolean {
  const h = normalizeHost(host);
  return patterns.some((pattern) => {
    const { name, port: wanted } = splitPattern(pattern);
    if (wanted !== undefined && wanted !== port) return false;
    if (name.startsWith('*.')) return h.endsWith(name.slice(1)) && h.length > name.length - 1;
    return h === name;
  });
}

function splitPattern(pattern: string): { name: string; port?: number } {
  const p = pattern.trim().toLowerCase();
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(p);
  if (bracket) return { name: bracket[1]!, ...(bracket[2] ? { port: Number(bracket[2]) } : {}) };
  const colon = p.lastIndexOf(':');
  // More than one colon without brackets: an IPv6 literal with no port.
  if (colon > 0 && p.indexOf(':') === colon && /^\d+$/.test(p.slice(colon + 1)))
    return { name: normalizeHost(p.slice(0, colon)), port: Number(p.slice(colon + 1)) };
  return { name: normalizeHost(p) };
}

/** `host:port` as the permission question and the rules show it (`[::1]:8080` for IPv6). */
export function hostPort(host: string, port: number): string {
  const h = normalizeHost(host);
  return h.includes(':') ? `[${h}]:${port}` : `${h}:${port}`;
}
