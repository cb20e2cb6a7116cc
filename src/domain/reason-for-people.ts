/**
 * The one way an error's text reaches a person (Slack replies, thread summaries, notices): what went wrong in
 * words, without the addresses of internal endpoints (the Slack Web API's, the API server's, a proxy's) and without
 * an HTTP client's raw wrapper. Whoever debugs it has the whole error in the logs.
 */

/** `https://10.0.0.1:6443/api/v1/…`, `http://127.0.0.1:39911/api/chat.postMessage`, `10.0.0.1:6443`, `[::1]:443`. */
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)'"`,]*[^\s)'"`,.:;]/gi;
const HOST_PORT = /(?<![\w.:/-])(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|localhost):\d{1,5}\b/gi;

/**
 * `text` with the addresses of endpoints replaced by `(address hidden)`: a URL with an IP or localhost host, an
 * explicit port or an API path (`/api/…`, `/apis/…`), and a bare host:port. A repository's URL (a setting the
 * person wrote, `https://github.com/org/repo`) stays.
 */
export function withoutAddresses(text: string): string {
  return text
    .replace(URL, (url) => (isEndpoint(url) ? '(address hidden)' : url))
    .replace(HOST_PORT, '(address hidden)');
}

function isEndpoint(url: string): boolean {
  let parsed: globalThis.URL;
  try {
    parsed = new globalThis.URL(url);
  } catch {
    return true;
  }
  const host = parsed.hostname;
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host === 'localhost';
  return ip || parsed.port !== '' || /^\/apis?(\/|$)/.test(parsed.pathname);
}

/**
 * What a person is told of `error`: its message without addresses. A Slack Web API client error (its `code` is
 * `slack_webapi_…`) is said as Slack being unreachable or refusing, never with the client's text.
 */
export function reasonForPeople(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code.startsWith('slack_webapi_')) {
    const platform = (error as { data?: { error?: unknown } }).data?.error;
    if (code === 'slack_webapi_platform_error' && typeof platform === 'string')
      return `Slack refused the call (${platform})`;
    if (code === 'slack_webapi_rate_limited_error') return 'Slack is rate-limiting us; try again in a moment';
    return 'Slack could not be reached';
  }
  const text = error instanceof Error ? error.message : String(error);
  return withoutAddresses(text);
}
