// The screen gallery's fixtures for the dashboard's webhooks page, as webhooksOf returns them, with fixed
// dates: Acme Travel's live plane with two endpoints (one mid-rotation, one disabled) and a delivery log
// that holds each status; and a plane with nothing yet. components/dashboard/gallery.tsx names the states.
import type { WebhooksOverview } from "./webhooks";

const PROD = "whe_4Fq9TzL2mW8xKc1RbN7vYp3d";
const AUDIT = "whe_8Hs2VnQ6jD0gPa5ZtC9wLe1k";

export const GALLERY_WEBHOOKS: WebhooksOverview = {
  plane: "live",
  endpoints: [
    {
      id: PROD,
      url: "https://api.acme-travel.example/webhooks/profile",
      description: "Production API",
      events: ["*"],
      enabled: true,
      createdAt: "2026-02-11T09:20:00.000Z",
      updatedAt: "2026-03-04T08:05:00.000Z",
      previousSecretExpiresAt: "2026-03-05T08:05:00.000Z",
    },
    {
      id: AUDIT,
      url: "https://audit.acme-travel.example/hooks",
      description: "",
      events: ["approval.revoked", "user.deleted"],
      enabled: false,
      createdAt: "2026-02-20T14:02:00.000Z",
      updatedAt: "2026-03-01T16:45:00.000Z",
      previousSecretExpiresAt: null,
    },
  ],
  deliveries: [
    {
      id: "whd_2Lm8QwE5rT1yU9iO3pA6sD4f",
      eventId: "evt_9Kd3Jf7Hg2Ls5Qa8Zx1Cv4Bn",
      eventType: "approval.revoked",
      endpointId: PROD,
      endpointUrl: "https://api.acme-travel.example/webhooks/profile",
      status: "delivered",
      responseCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: "2026-03-04T09:58:02.000Z",
      createdAt: "2026-03-04T09:58:01.000Z",
      attempts: [{ attempt: 1, status: "delivered", responseCode: 200, durationMs: 184, error: null, startedAt: "2026-03-04T09:58:01.000Z" }],
    },
    {
      id: "whd_7Gh4Nb2Vc6Xz0Lk8Jh5Fd3Sa",
      eventId: "evt_3Pq6Wr9Et2Yu5Io8As1Df4Gh",
      eventType: "import_job.completed",
      endpointId: PROD,
      endpointUrl: "https://api.acme-travel.example/webhooks/profile",
      status: "pending",
      responseCode: 500,
      lastError: "HTTP 500",
      nextAttemptAt: "2026-03-04T10:40:12.000Z",
      deliveredAt: null,
      createdAt: "2026-03-04T09:29:10.000Z",
      attempts: [
        { attempt: 1, status: "failed", responseCode: 500, durationMs: 412, error: "HTTP 500", startedAt: "2026-03-04T09:29:10.000Z" },
        { attempt: 2, status: "failed", responseCode: 500, durationMs: 398, error: "HTTP 500", startedAt: "2026-03-04T09:30:11.000Z" },
        { attempt: 3, status: "failed", responseCode: 500, durationMs: 405, error: "HTTP 500", startedAt: "2026-03-04T09:40:12.000Z" },
      ],
    },
    {
      id: "whd_5Tr8Ye1Wq4Az7Sx0Dc3Fv6Gb",
      eventId: "evt_6Mn1Bv4Cx7Za0Sd3Fg6Hj9Kl",
      eventType: "user.deleted",
      endpointId: AUDIT,
      endpointUrl: "https://audit.acme-travel.example/hooks",
      status: "failed",
      responseCode: null,
      lastError: "timed out after 10 s",
      nextAttemptAt: null,
      deliveredAt: null,
      createdAt: "2026-03-01T11:15:00.000Z",
      attempts: (
        [
          [1, "2026-03-01T11:15:00.000Z"],
          [2, "2026-03-01T11:16:10.000Z"],
          [3, "2026-03-01T11:26:20.000Z"],
          [4, "2026-03-01T12:26:30.000Z"],
          [5, "2026-03-01T18:26:40.000Z"],
          [6, "2026-03-02T10:26:50.000Z"],
        ] as const
      ).map(([attempt, startedAt]) => ({ attempt, status: "failed" as const, responseCode: null, durationMs: 10_003, error: "timed out after 10 s", startedAt })),
    },
  ],
};

export const GALLERY_WEBHOOKS_EMPTY: WebhooksOverview = { plane: "test", endpoints: [], deliveries: [] };
