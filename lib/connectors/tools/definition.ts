// What a connector tool is: its name, contract and apps, whether it acts (and so needs a capability the
// person allowed and an idempotency key), and its work given the person's usable connections. The same
// definition serves the developer MCP server and its REST route (lib/connectors/tools/run.ts).
import { z } from "zod";
import type { App } from "../../catalogue";
import type { Plane } from "../../platform/db/generated/enums";
import type { ProviderRequest } from "../apis/http";

/** One of the person's connections, ready for the provider: its token is read (and refreshed when due) at its first request and shared by the requests after it. */
export interface UsableConnection {
  id: string;
  app: App;
  /** google, microsoft, notion, or development (no provider behind it: the development data answers). */
  provider: string;
  accountEmail: string | null;
  scopes: readonly string[];
  /**
   * A request to the provider's API with the connection's token. A refused token is refreshed once
   * and the request tried again; a refused refresh marks the connection for reconnection.
   */
  fetch<T>(request: ProviderRequest): Promise<T>;
}

/** What a tool's work receives besides its arguments. */
export interface ConnectorRunContext {
  userId: string;
  agent: { id: string; handle: string; displayName: string };
  developerId: string;
  plane: Plane;
  /** The person's active connection to `app`; app_not_connected or app_needs_reconnect otherwise (an app the person did not give this agent reads as not connected). */
  connection(app: App): Promise<UsableConnection>;
  /** The person's active connections among `apps`, in that order; app_not_connected when there is none. */
  connections(apps: readonly App[]): Promise<UsableConnection[]>;
  signal?: AbortSignal;
}

/** An action tool's extra contract: the capability it needs and the idempotency key it takes. */
export interface ConnectorAction<A> {
  /**
   * The capability the person must have allowed for the agent (gmail:send), for these arguments and,
   * where the arguments leave it open (which mailbox sends), the person's connections.
   */
  capability: (args: A, ctx: ConnectorRunContext) => string | Promise<string>;
  /** The action's part of that capability (send for gmail:send): what a person is asked for on an app the agent holds nothing on. */
  permission: string;
}

export interface ConnectorToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The apps it reads or acts on (a call needs at least one connected); the first is the one a link names. */
  apps: readonly App[];
  /** Listed only when the Outlook connector is enabled here. */
  needsOutlook?: boolean;
  /** Set for tools that act (send, create): `input` then has a required `idempotency_key`. */
  action?: ConnectorAction<z.output<S>>;
  /** The JSON answer, the same on MCP (structuredContent) and REST. */
  output: z.ZodType;
  run: (ctx: ConnectorRunContext, args: z.output<S>) => Promise<object>;
}

/** The idempotency key an action tool takes: a retried call with the same key answers the first call's result. */
export const idempotencyKey = z
  .string()
  .trim()
  .min(8)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, "idempotency_key is 8 to 200 visible ASCII characters")
  .describe("A key you make per action (a UUID): calling again with the same key returns the first call's result instead of acting twice. Kept for 24 hours.");

/** A definition, typed by its schema, as the registry keeps it. */
export function connectorTool<S extends z.ZodObject>(definition: ConnectorToolDefinition<S>): ConnectorToolDefinition {
  return definition;
}
