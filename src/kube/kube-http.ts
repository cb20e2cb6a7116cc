/**
 * KubeHttp — the adapter's request path for its hot calls (apply, server-side dry run, create, replace, delete,
 * get, list) and its watches: one `http(s).request` per call over a keep-alive connection pool, the JSON body written
 * as given, the answer parsed once (a watch's answer line by line). Everything that makes a request trusted comes from @kubernetes/client-node's KubeConfig:
 * the server URL, TLS (CA, client certificate and key, `insecure-skip-tls-verify`, `tls-server-name`, proxy
 * agents) and the Authorization header (bearer token, token file, exec plugin, auth providers, basic auth), via its
 * public `applyToHTTPSOptions`.
 *
 * Why: client-node's generated request pipeline (middleware chain, rxjs-like observables, node-fetch, typed-model
 * serialisation of a body we then replace) cost about 1 ms of CPU per request, and a sync sends two requests per
 * object (server-side dry run, then apply). Profiled at 10,000 objects: ~1.4 s of 9 s in that pipeline.
 *
 * Credentials are re-derived from the KubeConfig at most once per `authTtlMs` (default 1 s; client-node re-derives
 * them per request: reading certificate files, and running an exec plugin that gives no expirationTimestamp on
 * every request), and at once after a 401, which is retried once with the fresh credentials — as client-go does
 * for exec credentials. The TLS material (CA, client certificate and key) is re-derived with them: when its bytes
 * change (a rotated client certificate), the keep-alive pool is rebuilt with the new material and the old one's
 * connections are closed once idle; otherwise connections are kept. Errors are client-node's `ApiException` (status, Status body, headers), so
 * cluster-errors.ts maps them as before; a request not answered within `requestTimeoutMs` fails with an
 * `AbortError`. GETs are retried on transient trouble like client-node's requests (retrying-http.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { ApiException, type KubeConfig } from './client-node.js';
import { type HttpRetryPolicy, withHttpRetries } from './retrying-http.js';

type KubeMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One API request: `path` from the server root (e.g. `/api/v1/namespaces/default/configmaps/x`). */
export interface KubeRequest {
  method: KubeMethod;
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | undefined>;
  /** Sent as JSON text, exactly as given (no typed-model round trip). */
  body?: unknown;
  /** Content-Type of the body; default `application/json`. */
  contentType?: string;
  /** Accept header; default `application/json`. */
  accept?: string;
}

export interface KubeHttpOptions {
  /** Each try is aborted when the server has not answered completely within this many ms. */
  requestTimeoutMs: number;
  /** How long derived credentials are reused, in ms; default 1000. */
  authTtlMs?: number;
  /** Retries of GETs (see retrying-http.ts); tries and backoff only, the timeout is `requestTimeoutMs`. */
  retry?: Omit<HttpRetryPolicy, 'requestTimeoutMs'>;
}

interface Credentials {
  headers: Record<string, string>;
  at: number;
}

/** What a try answered: status, headers and the body text. */
interface Answer {
  status: number;
  /** The answer's headers; empty for a success (not parsed: nothing reads them). */
  headers: http.IncomingHttpHeaders;
  retryAfter: string | undefined;
  text: string;
  /** The credentials the request was sent with. */
  credentials: Credentials;
}

const DEFAULT_AUTH_TTL_MS = 1000;

export class KubeHttp {
  private readonly kc: KubeConfig;
  private readonly server: URL;
  /** The server's protocol, host (IPv6 without brackets) and port, as http.request options. */
  private readonly host: { protocol: string; hostname: string; port: number | undefined };
  private readonly requestTimeoutMs: number;
  private readonly authTtlMs: number;
  private readonly retry: HttpRetryPolicy;
  private agent: http.Agent | undefined;
  /** The TLS options `agent` was built with (compared on each derivation). */
  private agentTls: TlsMaterial | undefined;
  private credentials: Promise<Credentials> | undefined;
  /** What `credentials` resolved to, once it has: read without a turn of the event loop while it is fresh. */
  private held: { of: Promise<Credentials>; value: Credentials } | undefined;
  /** The server URL's own path, without a trailing slash: the prefix of every request path. */
  private readonly basePath: string;

  /** @throws Error('No active cluster!') when the kubeconfig has no current cluster, as client-node does. */
  constructor(kc: KubeConfig, options: KubeHttpOptions) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('No active cluster!');
    this.kc = kc;
    this.server = new URL(cluster.server);
    const { protocol, hostname, port } = this.server;
    this.host = {
      protocol,
      hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
      port: port === '' ? undefined : Number(port),
    };
    this.basePath = this.server.pathname.replace(/\/$/, '');
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.authTtlMs = options.authTtlMs ?? DEFAULT_AUTH_TTL_MS;
    this.retry = { ...options.retry, requestTimeoutMs: options.requestTimeoutMs };
  }

  /**
   * Sends `request`; a 2xx answer comes back as its parsed JSON body (undefined when empty).
   * @throws ApiException for any other status (body: the server's Status text); network errors as Node raises
   *   them; Error named `AbortError` after `requestTimeoutMs`.
   */
  async request<T>(request: KubeRequest): Promise<T> {
    const text = await this.text(request);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /**
   * Sends `request`; a 2xx answer comes back as its body text (e.g. a Pod's log).
   * @throws as `request` does.
   */
  async text(request: KubeRequest): Promise<string> {
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const path = this.pathOf(request);
    // Only GETs are retried here (writes one level up, where a lost answer can be checked): a write is one try.
    let answer =
      request.method === 'GET'
        ? await withHttpRetries(true, this.retry, () => this.send(request, path, body))
        : await this.send(request, path, body);
    if (answer.status === 401) answer = await this.send(request, path, body, answer.credentials);
    if (answer.status < 200 || answer.status > 299) {
      const headers = Object.fromEntries(
        Object.entries(answer.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      throw new ApiException(answer.status, `HTTP-Code: ${answer.status}`, answer.text, headers);
    }
    return answer.text;
  }

  /**
   * One watch request (`watch=true` added to `query`): each line of the answer, a JSON watch event, is handed to
   * `onEvent` (a line that is not JSON is skipped), and `onDone` is called once — with null when the server closes
   * the answer (its `timeoutSeconds`), with an Error carrying `statusCode` when it answers other than 200, with
   * the network error, or with an Error named `AbortError` after `abort()`. What client-node's Watch does, over this
   * adapter's credentials and keep-alive pool instead of node-fetch (whose whatwg-url and tr46 cost ~25 ms of CPU to
   * load at every start of `wavesync sync`) and readline. No time limit: the server ends a watch.
   */
  async watch(
    path: string,
    query: Record<string, string | undefined>,
    onEvent: (type: string, object: unknown) => void,
    onDone: (error: Error | null) => void,
  ): Promise<{ abort(): void }> {
    const credentials = await this.credentialsFor();
    const headers = { ...credentials.headers, Accept: 'application/json', 'User-Agent': 'wavesync' };
    const transport = this.host.protocol === 'https:' ? https : http;
    const target = this.pathOf({ method: 'GET', path, query: { watch: 'true', ...query } });
    let done = false;
    /** Ends the watch once; a watch the server ended leaves its connection to the keep-alive pool. */
    const finish = (error: Error | null, ended = false) => {
      if (done) return;
      done = true;
      if (!ended) req.destroy();
      onDone(error);
    };
    const req = transport.request({ ...this.host, path: target, method: 'GET', headers, agent: this.agent });
    req.on('socket', (socket) => socket.setKeepAlive(true, 30_000));
    req.on('error', finish);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        const status = res.statusCode ?? 0;
        const error = new Error(res.statusMessage || http.STATUS_CODES[status] || 'Internal Server Error');
        (error as Error & { statusCode: number }).statusCode = status;
        // Refused credentials are derived anew for the watch that follows (and every request), as a request's 401 does.
        if (status === 401) this.credentialsFor(credentials).catch(() => {});
        res.resume();
        finish(error);
        return;
      }
      let partial = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!chunk.includes('\n')) {
          partial += chunk; // one event over many chunks (a big object) is split once, when whole
          return;
        }
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (!done) eventOf(line, onEvent);
      });
      res.on('end', () => {
        if (!done) eventOf(partial, onEvent);
        finish(null, true);
      });
      res.on('error', finish);
      res.on('close', () => finish(null));
    });
    req.end();
    return {
      abort: () => {
        const error = new Error('the watch was stopped');
        error.name = 'AbortError';
        finish(error);
      },
    };
  }

  /** The request's path from the host on: the server URL's own path (if any), `request.path`, the query. */
  private pathOf(request: KubeRequest): string {
    let query = '';
    for (const key in request.query) {
      const value = request.query[key];
      if (value !== undefined) query += `${query === '' ? '?' : '&'}${queryPair(key, value)}`;
    }
    return `${this.basePath}${request.path}${query}`;
  }

  /** The held credentials when they are the current ones and younger than `authTtlMs`; else undefined. */
  private freshCredentials(): Credentials | undefined {
    const held = this.held;
    if (held === undefined || held.of !== this.credentials) return undefined;
    return this.isFresh(held.value) ? held.value : undefined;
  }

  /** Whether credentials derived at `at` may still be used without deriving them again. */
  private isFresh(credentials: Credentials): boolean {
    return Date.now() - credentials.at < this.authTtlMs;
  }

  /**
   * The Authorization (and impersonation) headers, re-derived after `authTtlMs`, or when `refused` (credentials a
   * server answered 401) are still the current ones — requests refused together share one new derivation.
   */
  private async credentialsFor(refused?: Credentials): Promise<Credentials> {
    const current = this.credentials;
    if (current !== undefined) {
      const held = await current;
      const usable = refused === undefined ? this.isFresh(held) : held !== refused;
      if (usable) return held;
      if (this.credentials !== current) return this.credentialsFor(refused);
    }
    const next = this.derive();
    this.credentials = next;
    next.then(
      (value) => {
        if (this.credentials === next) this.held = { of: next, value };
      },
      () => {
        if (this.credentials === next) this.credentials = undefined;
      },
    );
    return next;
  }

  private async derive(): Promise<Credentials> {
    const options: https.RequestOptions & { headers?: Record<string, string> } = {};
    await this.kc.applyToHTTPSOptions(options);
    const tls = tlsMaterialOf(options.agent);
    if (this.agent === undefined || !sameTls(this.agentTls, tls)) {
      if (this.agent !== undefined) retire(this.agent);
      this.agent = keepAliveAgentLike(options.agent);
      this.agentTls = tls;
    }
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth) headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    return { headers, at: Date.now() };
  }

  /** One try with the current credentials (new ones if `refused` are current); the answer names those used. */
  private async send(request: KubeRequest, path: string, body: string | undefined, refused?: Credentials) {
    // Fresh credentials in hand are used as they are: most requests take no extra turn of the event loop.
    const credentials =
      (refused === undefined ? this.freshCredentials() : undefined) ?? (await this.credentialsFor(refused));
    const auth = credentials.headers;
    const headers: Record<string, string | number> = {
      ...auth,
      Accept: request.accept ?? 'application/json',
      'User-Agent': 'wavesync',
    };
    if (body !== undefined) {
      headers['Content-Type'] = request.contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const transport = this.host.protocol === 'https:' ? https : http;
    // Host parts as options, not a URL string: Node would parse the URL again for every request.
    const options = { ...this.host, path, method: request.method, headers, agent: this.agent };
    return new Promise<Answer>((resolve, reject) => {
      const req = transport.request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const text =
            chunks.length === 1 ? (chunks[0] as Buffer).toString() : Buffer.concat(chunks).toString();
          // The headers are parsed only for an answer that is not a success (Retry-After, the error's headers).
          const headers = status >= 200 && status <= 299 ? {} : res.headers;
          resolve({ status, headers, retryAfter: headers['retry-after'], text, credentials });
        });
      });
      const timer = setTimeout(() => {
        const error = new Error(`no complete answer within ${this.requestTimeoutMs} ms`);
        error.name = 'AbortError';
        req.destroy(error);
      }, this.requestTimeoutMs);
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      req.end(body);
    });
  }
}

/** The options of client-node's agent that make a TLS connection trusted (certificate bytes, checks). */
type TlsMaterial = Partial<Record<(typeof TLS_KEYS)[number], unknown>>;

const TLS_KEYS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'servername', 'rejectUnauthorized'] as const;

function tlsMaterialOf(agent: unknown): TlsMaterial | undefined {
  const options = (agent as { options?: Record<string, unknown> } | undefined)?.options;
  if (options === undefined) return undefined;
  return Object.fromEntries(TLS_KEYS.map((key) => [key, options[key]]));
}

function sameTls(a: TlsMaterial | undefined, b: TlsMaterial | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return TLS_KEYS.every((key) => sameValue(a[key], b[key]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  return a === b;
}

/** Stops pooling on a replaced agent: idle connections close now, busy ones when their answer is in. */
function retire(agent: http.Agent): void {
  (agent as http.Agent & { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets))
    for (const socket of sockets ?? []) socket.destroy();
}

/**
 * A keep-alive Agent with the options of the one client-node built (CA, client certificate, TLS checks). A proxy
 * agent (socks, http(s) proxy) is used as built.
 */
function keepAliveAgentLike(agent: unknown): http.Agent | undefined {
  if (!(agent instanceof http.Agent)) return undefined;
  if (agent.constructor !== http.Agent && agent.constructor !== https.Agent) return agent;
  const Agent = agent.constructor as typeof http.Agent;
  // Only the options that are set: the Agent copies its options into every request's options, and client-node's
  // carry ~20 keys it leaves undefined.
  const options = (agent as http.Agent & { options: http.AgentOptions }).options;
  const set = Object.entries(options).filter(([, value]) => value !== undefined);
  return new Agent({ ...Object.fromEntries(set), keepAlive: true });
}

/** Hands one line of a watch answer, a JSON event `{type, object}`, to `onEvent`; blank lines are skipped. */
function eventOf(line: string, onEvent: (type: string, object: unknown) => void): void {
  if (line.trim() === '') return;
  // As client-node's Watch: a line that is not JSON, or whose handling throws, is passed over.
  try {
    const event = JSON.parse(line) as { type: string; object: unknown };
    onEvent(event.type, event.object);
  } catch {}
}

/** Characters URLSearchParams writes as they are (application/x-www-form-urlencoded: alphanumerics and `*-._`). */
const FORM_SAFE = /^[\w.*-]*$/;

/**
 * `key=value` as URLSearchParams writes it. The common pair (`dryRun=All`, `fieldManager=wavesync`, `limit=500`) is
 * written as it is, without building a URLSearchParams per request; any other goes through one.
 */
function queryPair(key: string, value: string): string {
  if (FORM_SAFE.test(key) && FORM_SAFE.test(value)) return `${key}=${value}`;
  return new URLSearchParams([[key, value]]).toString();
}
