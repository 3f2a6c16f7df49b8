/** Where the command's proxy socket appears inside the sandbox (in its private /tmp). */
export const SANDBOX_PROXY_SOCKET = '/tmp/.tandem-proxy.sock';
/** The loopback port inside the sandbox's own network namespace that relays to the proxy. */
export const SANDBOX_PROXY_PORT = 3128;

/**
 * The proxy variables a command gets: HTTP(S) through the relay, SOCKS5 (`socks5h`: names are
 * resolved by the proxy, after the decision) for the rest. `NO_PROXY` is empty on purpose: the
 * host's loopback is a host like any other, reached through the proxy once allowed (inside, the
 * sandbox's own loopback has nothing on it).
 */
export function proxyEnvironment(port = SANDBOX_PROXY_PORT): Record<string, string> {
  const http = `http://127.0.0.1:${port}`;
  const socks = `socks5h://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: http,
    HTTPS_PROXY: http,
    http_proxy: http,
    https_proxy: http,
    ALL_PROXY: socks,
    all_proxy: socks,
    NO_PROXY: '',
    no_proxy: '',
  };
}

/**
 * The launcher that runs first inside the sandbox: it starts socat relaying the namespace's
 * loopback port to the proxy's Unix socket, waits until it listens, then execs the command. The
 * namespace is new, so one TCP socket in use (`/proc/net/sockstat`) is the relay listening; the
 * wait reads files only (no `sleep`) and gives up after a bounded number of reads, then the
 * command starts anyway. When the command ends, the sandbox's PID namespace ends and the relay
 * with it.
 */
export function relayLauncher(socat: string, run: { file: string; args: readonly string[] }): { file: string; args: string[] } {
  const listen = `TCP4-LISTEN:${SANDBOX_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr,backlog=4096`;
  const script = [
    `"$0" ${listen} UNIX-CONNECT:${SANDBOX_PROXY_SOCKET} >/dev/null 2>&1 &`,
    'n=0',
    'while [ "$n" -lt 20000 ]; do',
    '  up=0',
    '  while read -r kind _ inuse _; do [ "$kind" = "TCP:" ] && up=$inuse && break; done < /proc/net/sockstat',
    '  [ "$up" -ge 1 ] && break',
    '  n=$((n + 1))',
    'done',
    'unset n up kind inuse',
    'exec "$@"',
  ].join('\n');
  return { file: '/bin/sh', args: ['-c', script, socat, run.file, ...run.args] };
}
