// What a way in into the hosted flow is: one module in this folder exporting an object of this shape,
// listed once in ./index.ts. The flow's core (its store, transitions, steps and views) knows a way in
// only through this object and loops over none by name, as the token endpoint reads its grants
// (lib/oidc/grants/). A way in imports its own domain (lib/oidc, lib/sign-in, …); no domain imports
// the flow.
import type { z } from "zod";
import { ASSISTANTS, IMPORT_SCREEN_APPS, type App, type Assistant } from "../../catalogue";
import type { Prisma } from "../../platform/db/generated/client";
import type { Plane } from "../../platform/db/generated/enums";
import type { RequiredEntry } from "../../required/entries";
import type { BroughtIn } from "../bring-in";
import type { OrderInput, Screen, WayInName } from "../screens";
import type { FlowReceipt } from "../stored";

/** A flow as every way in has it; FlowOf adds which way in and its request. */
export interface FlowCore {
  id: string;
  /**
   * The developer and agent the flow is for: none for the service's own sign-up, and no agent yet for
   * an MCP client known by a metadata document until its flow ends (WayIn.bindAgent).
   */
  developerId: string | null;
  agentId: string | null;
  plane: Plane;
  required: RequiredEntry[];
  status: "active" | "completed" | "declined";
  screen: Screen;
  signInFirst: boolean;
  broughtIn: BroughtIn[];
  /** The number the code was sent to: its keyed hash and last four digits. */
  phoneHash: string | null;
  phoneLast4: string | null;
  /** The address an e-mailed code went to, on the mailbox page after the code. */
  pendingEmail: string | null;
  userId: string | null;
  receipt: FlowReceipt | null;
  expiresAt: Date;
  /** Keyed hash of the browser's flow cookie (lib/flow/browser.ts isFlowBrowser). */
  browserHash: string;
}

/** A flow of one way in: its request typed as that way in stores it. */
export type FlowOf<N extends WayInName, R> = FlowCore & { wayIn: N; request: R };

/** What the pages and steps read of a way in's request, the same for every way in. */
export interface WayInTraits {
  /** The service's own page (its sign-up): its mark, never an app's name. */
  own: boolean;
  /** The app's name as the request gives it, shown before the agent's (a sign-in link's display_name). */
  displayName: string | null;
  /** The app's name while the flow has no agent to name it (an MCP client's metadata document). */
  nameWithoutAgent: string | null;
  /** The name the app and capability screens give the app (a connect link's client_name). */
  clientName: string | null;
  /** Why the app asks, in its own words (a connect link's purpose). */
  purpose: string | null;
  /** The capability the person is asked to allow (a connect link's). */
  capability: string | null;
  /** The one app the flow's app screen is for (a connect link's app, a sign-in link's one connector). */
  app: string | null;
  /** The assistants the import screen offers (and imports from). */
  assistants: readonly Assistant[];
  /** The apps the import screen offers; none in a flow that connects no apps. */
  apps: readonly App[];
  /** The flow signs the person in (a number and its code; "Sign in" under Continue). */
  signsIn: boolean;
  /** The only account that may finish the flow (a connect link minted for one), checked at the code. */
  onlyAccount: string | null;
  /** The developer's own id for the person is bound to the account that finishes: the screens say which profile. */
  bindsExternalId: boolean;
  /** Where an ended flow's page links to: the app's own origin, else the service's. */
  home: string;
  /** The receipt's way back to the app (Return); without it the person goes back themselves. */
  returns: boolean;
  /** A text-back link: the conversation picks up in the messages. */
  backToMessages: boolean;
}

/** What finishing saved and connected, for the way in's own part of it. */
export interface Finishing<F> {
  flow: F;
  userId: string;
  /** The imports saved from what was brought in. */
  importIds: string[];
  /** The apps the flow's connections joined the account as. */
  connected: string[];
}

/**
 * One way in. `N` is its name (the database's FlowWayIn), `R` the request its flows store. Every hook
 * gets the flow as parsed; the ones given `tx` run inside the transaction of the transition that calls
 * them (lib/flow/transitions.ts), so what they write commits with it or not at all.
 */
export interface WayIn<N extends WayInName, R> {
  readonly name: N;
  /**
   * The request its flows store, parsed on every read and every write (lib/flow/row.ts): the `request`
   * column, and the reference column the way in keeps its origin in, under that column's name.
   */
  readonly request: z.ZodType<R>;
  /** Its screens in order. */
  screens(input: OrderInput, request: R): Screen[];
  /** What the pages and steps read of its request. */
  traits(request: R): WayInTraits;
  /** Whether the mailbox page follows the code, for the account behind the number. Absent: never. */
  mailboxAfterCode?(flow: FlowOf<N, R>, userId: string): Promise<boolean>;
  /**
   * A flow that asks for no number (its import screen is followed by the receipt): the account its
   * Continue saves to, or what the person is told when there is none.
   */
  accountWithoutNumber?(flow: FlowOf<N, R>): Promise<{ userId: string } | { refused: string }>;
  /** The agent a flow gets only as it ends (made and bound in `tx`): the flow bound to it, or null when it had one. */
  bindAgent?(tx: Prisma.TransactionClient, flow: FlowOf<N, R>): Promise<FlowOf<N, R> | null>;
  /** Inside the transaction that saves and approves (the flow onto its receipt): what finishing does for this way in. */
  finishing?(tx: Prisma.TransactionClient, done: Finishing<FlowOf<N, R>>): Promise<void>;
  /** Once that transaction committed. */
  finished?(flow: FlowOf<N, R>): Promise<void>;
  /** Inside the transaction that completes the flow: where the browser goes, with what the app gets back (a code, a sign-in code). */
  returnTo(tx: Prisma.TransactionClient, flow: FlowOf<N, R>, userId: string): Promise<string>;
  /** Where a declined flow sends the browser, and what the app is told. */
  declineTo(flow: FlowOf<N, R>): Promise<string>;
}

/** The request type of a way in. */
export type RequestOf<W> = W extends WayIn<WayInName, infer R> ? R : never;

/** The traits of a way in whose request says nothing of them: an app's sign-in offering every assistant and app. */
export const PLAIN_TRAITS: WayInTraits = {
  own: false,
  displayName: null,
  nameWithoutAgent: null,
  clientName: null,
  purpose: null,
  capability: null,
  app: null,
  assistants: ASSISTANTS,
  apps: IMPORT_SCREEN_APPS,
  signsIn: true,
  onlyAccount: null,
  bindsExternalId: false,
  home: "/",
  returns: true,
  backToMessages: false,
};
