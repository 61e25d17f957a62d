// A partner flow session's statuses: open until a flow from it finishes (completed) or its life ends (expired).
export const PARTNER_SESSION_STATUSES = ["open", "completed", "expired"] as const;
export type PartnerSessionStatus = (typeof PARTNER_SESSION_STATUSES)[number];
