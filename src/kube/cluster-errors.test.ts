import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ClusterError } from '../engine/index.js';
import { toClusterError } from './cluster-errors.js';

function apiError(code: number, status: Record<string, unknown> | string): ApiException<string> {
  const body =
    typeof status === 'string' ? status : JSON.stringify({ kind: 'Status', apiVersion: 'v1', ...status });
  return new ApiException(code, 'Unsuccessful HTTP Request', body, {});
}

describe('toClusterError', () => {
  it('keeps the API server message and reason of a 422, as a permanent error', () => {
    const error = toClusterError(
      apiError(422, {
        message: 'ServiceAccount "x" is invalid: metadata.labels: Invalid value: "-bad-"',
        reason: 'Invalid',
      }),
      'apply v1 ServiceAccount x',
    );
    expect(error).toBeInstanceOf(ClusterError);
    expect(error.message).toBe('ServiceAccount "x" is invalid: metadata.labels: Invalid value: "-bad-"');
    expect(error).toMatchObject({ statusCode: 422, reason: 'Invalid', transient: false });
  });

  it.each([429, 500, 503, 504, 408])('treats HTTP %i as transient', (code) => {
    expect(toClusterError(apiError(code, { message: 'try later' }), 'get').transient).toBe(true);
  });

  it.each([400, 403, 404, 409])('treats HTTP %i as permanent', (code) => {
    expect(toClusterError(apiError(code, { message: 'no' }), 'get').transient).toBe(false);
  });

  it('uses a non-JSON body as the message and falls back to the status code when the body is empty', () => {
    expect(toClusterError(apiError(502, 'upstream connect error'), 'get').message).toBe(
      'upstream connect error',
    );
    expect(toClusterError(apiError(500, ''), 'get v1 Pod p').message).toBe('get v1 Pod p: HTTP 500');
  });

  it('treats connection resets and refusals (also nested as cause) and aborted requests as transient', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const nested = new Error('request to http://127.0.0.1:1/ failed', { cause: { code: 'ECONNREFUSED' } });
    const aborted = Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    expect(toClusterError(reset, 'list').transient).toBe(true);
    expect(toClusterError(nested, 'list')).toMatchObject({
      transient: true,
      message: 'list: the API server could not be reached (connection refused)',
    });
    expect(toClusterError(aborted, 'list').transient).toBe(true);
    expect(toClusterError(new Error('Unrecognized API version and kind: x'), 'discover').transient).toBe(
      false,
    );
  });
});
