/**
 * A fetch for the Slack WebClient that counts Web API calls and HTTP 429 answers per method into the metrics
 * (`wavesync_slack_api_calls_total`, `wavesync_slack_rate_limited_total`). The method is the last path segment
 * of `https://slack.com/api/<method>`.
 */
import type { Metrics } from './metrics.js';

export function countingFetch(
  metrics: Pick<Metrics, 'slackCall' | 'slackRateLimited'>,
  inner: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? 'unknown';
    metrics.slackCall(method);
    const response = await inner(input, init);
    if (response.status === 429) metrics.slackRateLimited(method);
    return response;
  };
}
