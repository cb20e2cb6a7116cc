/**
 * One HTTP(S) GET with the TLS settings of a Helm repository credential (CA, client certificate, `insecure`), a
 * timeout, redirects followed (at most 5; the Authorization header is dropped when a redirect leaves the host, as
 * Helm and registries' blob redirects to object storage expect) and the whole body read into memory.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpTls {
  ca?: string;
  cert?: string;
  key?: string;
  /** False with the credential's `insecure: true`. */
  rejectUnauthorized: boolean;
}

export interface HttpGetOptions {
  headers?: Record<string, string>;
  tls?: HttpTls;
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}

const MAX_REDIRECTS = 5;

/** @throws Error for network, TLS and timeout failures and too many redirects (the status is never an error). */
export async function httpGet(url: string, options: HttpGetOptions): Promise<HttpResponse> {
  let current = new URL(url);
  let headers = { ...options.headers };
  for (let redirects = 0; ; redirects++) {
    const response = await once(current, headers, options);
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || location === undefined) return response;
    if (redirects >= MAX_REDIRECTS) throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, current);
    if (next.host !== current.host) {
      const { Authorization: _dropped, authorization: _also, ...rest } = headers;
      headers = rest;
    }
    current = next;
  }
}

function once(url: URL, headers: Record<string, string>, options: HttpGetOptions): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'GET',
        headers,
        timeout: options.timeoutMs,
        ...(secure && options.tls ? options.tls : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            url: url.href,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
