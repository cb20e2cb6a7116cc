/**
 * Two things a real API server does that clients rely on: a Secret's `stringData` is merged into `data` (base64)
 * on create, update, patch and server-side apply and never stored or returned; and core Events are listed and
 * watched only by the fields the Event strategy makes selectable — any other is a 400 "field label not supported".
 */
import { describe, expect, it } from 'vitest';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 20 });
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function call(method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(`${cluster.sim.url}${path}`, {
    method,
    headers: { 'content-type': contentType },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { code: res.status, body: (await res.json()) as Record<string, unknown> };
}

const SECRETS = '/api/v1/namespaces/default/secrets';

describe('Secret stringData', () => {
  it('is merged into data as base64 on create (over a data key of the same name) and never returned', async () => {
    const created = await call('POST', SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sd-create' },
      data: { user: b64('old'), keep: b64('kept') },
      stringData: { user: 'admin', password: 'p@ss word' },
    });
    expect(created.code).toBe(201);
    expect(created.body.stringData).toBeUndefined();
    expect(created.body.data).toEqual({ user: b64('admin'), keep: b64('kept'), password: b64('p@ss word') });
    const read = await call('GET', `${SECRETS}/sd-create`);
    expect(read.body.stringData).toBeUndefined();
    expect(read.body.data).toEqual(created.body.data);
  });

  it('on update, merge patch and server-side apply as well; a dry run answers converted too', async () => {
    await call('POST', SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sd-up' } });
    const live = await call('GET', `${SECRETS}/sd-up`);
    const put = await call('PUT', `${SECRETS}/sd-up`, { ...live.body, stringData: { token: 'abc' } });
    expect(put.code).toBe(200);
    expect(put.body).toMatchObject({ data: { token: b64('abc') } });
    expect(put.body.stringData).toBeUndefined();
    const patched = await call(
      'PATCH',
      `${SECRETS}/sd-up`,
      { stringData: { token: 'def' } },
      'application/merge-patch+json',
    );
    expect(patched.body).toMatchObject({ data: { token: b64('def') } });
    const applied = await call(
      'PATCH',
      `${SECRETS}/sd-up?fieldManager=test&force=true`,
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sd-up' }, stringData: { token: 'ghi' } },
      'application/apply-patch+yaml',
    );
    expect(applied.code).toBe(200);
    expect(applied.body.stringData).toBeUndefined();
    expect((applied.body.data as Record<string, string>).token).toBe(b64('ghi'));
    const dry = await call('PUT', `${SECRETS}/sd-up?dryRun=All`, {
      ...(await call('GET', `${SECRETS}/sd-up`)).body,
      stringData: { token: 'dry' },
    });
    expect(dry.body).toMatchObject({ data: { token: b64('dry') } });
    expect(dry.body.stringData).toBeUndefined();
    expect(((await call('GET', `${SECRETS}/sd-up`)).body.data as Record<string, string>).token).toBe(
      b64('ghi'),
    );
  });

  it('a stringData value that is not a string is a 400, as the API server fails to decode it', async () => {
    const bad = await call('POST', SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sd-bad' },
      stringData: { port: 5432 },
    });
    expect(bad.code).toBe(400);
    expect(bad.body.message).toBe(
      'Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.stringData of type string',
    );
  });
});

describe('Event field selectors', () => {
  const EVENTS = '/api/v1/namespaces/default/events';
  const event = (name: string, kind: string, reason: string, source: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: {
      kind,
      name: 'web',
      namespace: 'default',
      apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1',
    },
    reason,
    message: reason,
    type: reason === 'BackOff' ? 'Warning' : 'Normal',
    ...source,
  });
  const names = (list: { body: Record<string, unknown> }) =>
    (list.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name).sort();

  it('selects by involvedObject.*, reason, type, source (source.component, else reportingComponent) and metadata', async () => {
    await call('POST', EVENTS, event('ev-1', 'Pod', 'BackOff', { source: { component: 'kubelet' } }));
    await call(
      'POST',
      EVENTS,
      event('ev-2', 'Deployment', 'ScalingReplicaSet', { reportingComponent: 'dc' }),
    );
    const q = (selector: string) => call('GET', `${EVENTS}?fieldSelector=${encodeURIComponent(selector)}`);
    expect(names(await q('involvedObject.kind=Pod,involvedObject.name=web'))).toEqual(['ev-1']);
    expect(names(await q('type=Warning'))).toEqual(['ev-1']);
    expect(names(await q('reason!=BackOff'))).toEqual(['ev-2']);
    expect(names(await q('source=kubelet'))).toEqual(['ev-1']);
    expect(names(await q('source=dc'))).toEqual(['ev-2']);
    expect(names(await q('reportingComponent=dc'))).toEqual(['ev-2']);
    expect(names(await q('metadata.name=ev-2'))).toEqual(['ev-2']);
  });

  it('refuses any other field with 400 "field label not supported", for a list and a watch', async () => {
    for (const path of [
      `${EVENTS}?fieldSelector=message%3Dx`,
      `${EVENTS}?watch=true&fieldSelector=${encodeURIComponent('involvedObject.kind=Pod,spec.x=y')}`,
      `/api/v1/events?fieldSelector=${encodeURIComponent('source.component=kubelet')}`,
    ]) {
      const res = await call('GET', path);
      expect(res.code).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
      expect(res.body.message).toMatch(/^field label not supported: (message|spec\.x|source\.component)$/);
    }
  });
});
