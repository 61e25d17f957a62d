// The flows a partner session opens: `connect` (import, phone, code), `linked_account` (served as
// connect; phone and code first where the developer asked for it), and `import`, the import-only flow
// (the import screen, then the receipt: no phone or code).
export const PARTNER_FLOWS = ["connect", "linked_account", "import"] as const;
export type PartnerFlow = (typeof PARTNER_FLOWS)[number];
