import type { ApprovalRecord } from '../../src/environments/index.js';

/**
 * A `/sync delete` approval as the approval store held it before a deletion was its own job: its operation the
 * sync request's then (syncing nothing), its binding hashed over it. Kept byte for byte: such records are in Redis.
 */
export const LEGACY_DELETION_APPROVAL: ApprovalRecord = JSON.parse(`{
  "request": {
    "id": "b7e1c0de-0000-4000-8000-000000000001",
    "application": "guestbook",
    "environment": "production",
    "operation": { "prune": false, "dryRun": false, "syncOptions": [] },
    "revision": "delete",
    "revisionName": "main",
    "binding": "97499ec89b54fa7d2d66a4dc39a58153a507b25b2d259ff7101cbd4b34589dfe",
    "requester": { "userId": "U0KIM", "userName": "kim" },
    "channel": "C0DEPLOYS",
    "approvers": { "users": ["U0ANA"] },
    "requiredApprovals": 1,
    "createdAt": "2026-01-05T10:00:00.000Z",
    "expiresAt": "2026-01-05T11:00:00.000Z",
    "plan": { "liveKnown": false, "create": [], "update": [], "apply": [], "prune": [], "pruneSkipped": [] },
    "deletion": {
      "request": {
        "cascade": "background",
        "confirmed": ["/PersistentVolumeClaim/guestbook/data"],
        "planHash": "0123456789abcdef0123456789abcdef"
      },
      "plan": {
        "application": "guestbook",
        "cascade": "background",
        "waves": [{ "wave": 0, "resources": [] }],
        "kept": [],
        "confirm": [],
        "hooks": { "preDelete": [], "postDelete": [] }
      }
    }
  },
  "status": "approved",
  "approvals": [{ "userId": "U0ANA", "at": 1767607500000 }],
  "message": { "channel": "C0DEPLOYS", "ts": "1767607200.000100" }
}`);
