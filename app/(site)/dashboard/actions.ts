// The dashboard's forms, as the pages hand them to their components: sign-in, accounts and members
// (./account-actions.ts), the account's settings (./settings-actions.ts) and webhooks (./webhook-actions.ts). Each is a "use server"
// module whose every export is built by defineAction; this module only gathers them.
export * from "./account-actions";
export * from "./settings-actions";
export * from "./webhook-actions";
