import { describe, expect, it } from 'vitest';
import { reasonForPeople, withoutAddresses } from './reason-for-people.js';

describe('src/domain/reason-for-people', () => {
  it('hides URLs and host:port addresses, keeps the words', () => {
    expect(
      withoutAddresses(
        'get v1 ConfigMap a: the API server could not be reached (connection refused: connect ECONNREFUSED 127.0.0.1:6443)',
      ),
    ).toBe(
      'get v1 ConfigMap a: the API server could not be reached (connection refused: connect ECONNREFUSED (address hidden))',
    );
    expect(withoutAddresses('request to https://10.0.0.1:6443/api/v1/namespaces?limit=5 failed')).toBe(
      'request to (address hidden) failed',
    );
    expect(withoutAddresses('bind [::1]:443 and localhost:8080, keep v1.2.3 and 12:30')).toBe(
      'bind (address hidden) and (address hidden), keep v1.2.3 and 12:30',
    );
  });

  it("says a Slack client's error as Slack's answer, never with the client's text", () => {
    const limited = Object.assign(
      new Error(
        'A request error occurred: A rate limit was exceeded (url: http://127.0.0.1:4567/api/chat.postMessage, retry-after: 1)',
      ),
      { code: 'slack_webapi_request_error' },
    );
    const platform = Object.assign(new Error('An API error occurred: not_in_channel'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'not_in_channel' },
    });

    expect(reasonForPeople(limited)).toBe('Slack could not be reached');
    expect(reasonForPeople(platform)).toBe('Slack refused the call (not_in_channel)');
    expect(reasonForPeople(new Error('GET https://k8s.corp/api/v1/pods: 503'))).toBe(
      'GET (address hidden): 503',
    );
    expect(reasonForPeople(new Error('revision v9 not found in https://github.com/org/apps'))).toBe(
      'revision v9 not found in https://github.com/org/apps',
    );
  });
});
