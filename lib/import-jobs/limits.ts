// Bulk import's caps and tiers, verbatim from the specification's Limits section. One table: the
// submit route, the reference (docs/bulk-import.md) and the tests read these constants.
import type { ImportTier } from "../platform/db/generated/enums";

/** The global caps: any tier, any job. Over one, the job is refused with 413 payload_too_large. */
export const IMPORT_CAPS = {
  conversationsPerProfile: 250,
  messagesPerConversation: 1_000,
  charsPerMessage: 20_000,
} as const;

export interface TierLimits {
  /** Unique imported profiles the developer may hold in one plane; null is unlimited. */
  uniqueProfiles: number | null;
  profilesPerJob: number;
  inputCharsPerJob: number;
  concurrentJobs: number;
}

/** The import tiers (a developer's tier is set with `npm run service -- set-tier`). */
export const IMPORT_TIER_LIMITS: Readonly<Record<ImportTier, TierLimits>> = {
  free: { uniqueProfiles: 100, profilesPerJob: 25, inputCharsPerJob: 2_000_000, concurrentJobs: 1 },
  pro: { uniqueProfiles: 1_000, profilesPerJob: 250, inputCharsPerJob: 20_000_000, concurrentJobs: 2 },
  scale: { uniqueProfiles: 10_000, profilesPerJob: 1_000, inputCharsPerJob: 200_000_000, concurrentJobs: 5 },
  enterprise: { uniqueProfiles: null, profilesPerJob: 10_000, inputCharsPerJob: 200_000_000, concurrentJobs: 10 },
};

/** The modes a job may name. */
export const IMPORT_MODES = ["backfill"] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/**
 * The request body's cap in bytes for a tier: every input character may take up to 4 bytes of UTF-8,
 * plus the JSON around the messages; never more than one string Node can hold (512 MiB).
 */
export function importBodyLimitBytes(tier: ImportTier): number {
  return Math.min(IMPORT_TIER_LIMITS[tier].inputCharsPerJob * 4 + 16 * 1024 * 1024, 512 * 1024 * 1024 - 64);
}

/** A worker's claim on a job: renewed after every chunk; one not renewed in time is taken over. */
export const IMPORT_LEASE_SECONDS_DEFAULT = 30;

export const IMPORT_MESSAGES = {
  idempotencyKeyReused: "This idempotencyKey was used for a job with a different body; use a new key for a new job.",
  jobNotFound: "No such import job for this developer and agent.",
} as const;
