import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * Whether a tandem server answers at `url`: the socket.io handshake endpoint responds before
 * any authentication, so this needs no token. `ca`: what to trust for an `https://` server.
 * Plain node:http rather than fetch: a CLI that probes once would otherwise pay for loading
 * fetch (undici and its WebAssembly parser), which costs more than the probe.
 */
export function serverAnswers(url: string, timeoutMs = 2000, ca?: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL('/socket.io/?EIO=4&transport=polling', url);
    } catch {
      return resolve(false);
    }
    const secure = target.protocol === 'https:';
    const request = (secure ? httpsRequest : httpRequest)(target, { method: 'GET', timeout: timeoutMs, ...(secure && ca ? { ca } : {}) }, (response) => {
      response.resume();
      resolve((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(false));
    request.end();
  });
}
