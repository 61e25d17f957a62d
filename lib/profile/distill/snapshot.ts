// What the service reads from a connected app to learn durable facts about the person, as the app
// distiller takes it (lib/connectors/memories reads it): a few items per app, their titles and metadata,
// never a message's or document's body beyond a sent message's signature block.
import type { App } from "../../catalogue";

export type SnapshotItem =
  /** A message the person sent: their display name as the From header gives it, and the signature block if one is found. */
  | { kind: "sent_mail"; from_name: string | null; from_address: string; signature: string | null; date: string }
  /** A calendar event: its title, whether and how it recurs (RRULE), the person's role. */
  | { kind: "event"; title: string; recurrence: string | null; organizer_self: boolean; start: string }
  /** A document or page the person owns or edited recently: its title. */
  | { kind: "document"; title: string; modified: string };

export interface AppSnapshot {
  app: App;
  account_email: string | null;
  items: SnapshotItem[];
}
