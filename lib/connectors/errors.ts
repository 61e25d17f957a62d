// Why connecting an app, or using a connection, did not work: one reason per case, each with its
// message. A failed attempt carries its flow, so the person goes back to it.
export type AppConnectionErrorReason = "unknown_app" | "not_configured" | "unknown_attempt" | "other_browser" | "expired" | "declined" | "needs_reconnect";

export class AppConnectionError extends Error {
  constructor(
    readonly reason: AppConnectionErrorReason,
    /** The flow the attempt belonged to, when known: the person goes back to it. */
    readonly flowId: string | null = null,
  ) {
    super(
      {
        unknown_app: "This app cannot be connected.",
        not_configured: "This app's provider is not configured on this service.",
        unknown_attempt: "This connection attempt is unknown or was already used.",
        other_browser: "This connection was started in another browser. Start connecting again from this one.",
        expired: "This connection attempt expired. Start again.",
        declined: "The connection was not allowed at the provider.",
        needs_reconnect: "The provider no longer accepts this connection. Connect the app again.",
      }[reason],
    );
    this.name = "AppConnectionError";
  }
}
