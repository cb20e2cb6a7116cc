/**
 * ApplicationSet removals: a generated Application its ApplicationSet no longer generates is announced once, and its
 * resources deleted where Argo CD's policy would (removed-applications.ts). main/ wires it into the bot.
 */

export { redisRemovalAnnouncements } from './redis-removal-announcements.js';
export { watchRemovedApplications } from './removed-applications.js';
