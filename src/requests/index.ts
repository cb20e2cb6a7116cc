/**
 * Requesting a sync — the public face of src/requests: requestSync for a person (authorize → approval → enqueue;
 * docs/approvals.md, "The request path"), and the approval flow joined to it (createApprovalServices, which alone
 * queues approved requests). The other origins are not here: each is reached only by the code that owns its
 * authorization, through its own entry point (./for-drift.ts for src/drift/, ./for-app-of-apps.ts for
 * src/app-of-apps/, ./for-revisions.ts for src/revisions/, ./for-appset-removal.ts for src/appset-removal/,
 * ./for-main.ts for src/main/; see ./request-sync.ts).
 */

export { createApprovalServices } from './approval-services.js';
export { NO_APPROVAL_FLOW, type PersonSyncRequest, type RequestGate, requestSync } from './request-sync.js';
