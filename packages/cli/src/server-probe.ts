import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * Whether a tandem server answers at `url`: the socket.io handshake endpoint responds before
 * any authentication, so this needs no token. Plain node:http rather than fetch: a CLI that
 * probes once would otherwise pay for loading fetch (undici and its WebAssembly parser), which
 * costs more than the probe.
 */
export function serverAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL('/socket.io/?EIO=4&transport=polling', url);
    } catch {
      return resolve(false);
    }
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method: 'GET', timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(false));
    request.end();
  });
}
