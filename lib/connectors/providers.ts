// Which provider each app connects through, and whether it can connect on this service: its own
// provider when configured, else the development provider when CONNECT_DRIVER=development stands in.
import { isApp, type App } from "../catalogue";
import { development } from "./development";
import { AppConnectionError } from "./errors";
import { google } from "./google";
import { microsoft } from "./microsoft";
import { notion } from "./notion";
import type { ConnectorProvider } from "./types";

/** Each app's provider: the one it connects through. */
export const CONNECTORS: Readonly<Record<App, ConnectorProvider>> = { gmail: google, calendar: google, drive: google, sheets: google, outlook: microsoft, notion };

/** The app's real provider, for a name that is one of ours (never an Object prototype key). */
export function connectorOf(app: string): ConnectorProvider | undefined {
  return isApp(app) ? CONNECTORS[app] : undefined;
}

/** The provider a stored connection was made through, whatever the app would use today. */
export const PROVIDERS: Record<ConnectorProvider["id"], ConnectorProvider> = { google, microsoft, notion, development };

/**
 * The provider an app connects through: its own when configured; else, with CONNECT_DRIVER=development,
 * the development provider (/dev/connect).
 */
export function providerFor(app: string): ConnectorProvider {
  const provider = connectorOf(app);
  if (!provider) throw new AppConnectionError("unknown_app");
  if (provider.configured()) return provider;
  if (development.configured()) return development;
  throw new AppConnectionError("not_configured");
}

/** Whether an app can be connected on this service (its provider is configured, or the development one stands in). */
export function canConnectApp(app: string): boolean {
  const provider = connectorOf(app);
  return !!provider && (provider.configured() || development.configured());
}

/** How an app's row reads: connected, needing reconnection, ready to connect, or not set up here. */
export type AppState = "connected" | "reconnect" | "connect" | "unavailable";
export function appState(app: string, connection?: { status: string }): AppState {
  return connection?.status === "active" ? "connected" : connection ? "reconnect" : canConnectApp(app) ? "connect" : "unavailable";
}

/** Whether an app connects through the development provider here (the page says so). */
export function appConnectsInDevelopment(app: string): boolean {
  const provider = connectorOf(app);
  return !!provider && !provider.configured() && development.configured();
}
