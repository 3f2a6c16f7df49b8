/**
 * What the address asks for: a share link is `BASE/?session=ID#token=TOKEN`. The token is in
 * the fragment, which a browser never sends in a request line or a Referer; the page takes it
 * out of the address bar (and so out of the history) before it does anything else.
 */
export interface LinkRequest {
  /** The token from the fragment, if the address had one. */
  token: string | null;
  /** `?session=ID`: the session to open first. */
  sessionId: string | null;
}

/** Reads the token and session from `location`, and leaves `?session=ID` alone but the token out of the address. */
export function takeLinkRequest(location: Location, history: History): LinkRequest {
  const sessionId = new URLSearchParams(location.search).get('session')?.trim() || null;
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = fragment.get('token')?.trim() || null;
  if (fragment.has('token')) {
    fragment.delete('token');
    const rest = fragment.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  }
  return { token, sessionId };
}
