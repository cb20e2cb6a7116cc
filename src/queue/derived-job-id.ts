/**
 * Job ids derived from what a job is for, so enqueueing the same thing twice is refused by the queue
 * (`enqueueSync(req, { jobId })`): a UUID in version-5 layout from the SHA-256 of the parts.
 */
import { createHash } from 'node:crypto';

/** A UUID-shaped id (version 5 layout) from `parts`; equal parts give equal ids. */
export function derivedJobId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\n')).digest('hex');
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
