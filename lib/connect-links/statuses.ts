// The words of a connect link's two status fields, with nothing else in the module: the connect
// card's browser code reads them too.

/** What POST /v1/profile/connect says is missing. */
export const CONNECT_STATUSES = ["authorization_required", "connect_app", "permission_needed", "import_ready"] as const;
export type ConnectStatus = (typeof CONNECT_STATUSES)[number];
/** What GET <connect_url>/status answers: approved once a flow opened from the link finished. */
export const LINK_STATUSES = ["pending", "approved", "expired"] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
