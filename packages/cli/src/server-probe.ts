/**
 * Whether a tandem server answers at `url`: the socket.io handshake endpoint responds before
 * any authentication, so this needs no token.
 */
export async function serverAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await fetch(new URL('/socket.io/?EIO=4&transport=polling', url), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
