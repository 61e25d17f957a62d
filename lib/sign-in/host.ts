// The sign-in host: {SIGN_IN_URL}/<agent> (and /<agent>/reconnect) opens the hosted flow for that
// agent — the same screens as OpenID Connect — with what the link carries: return_to, state,
// display_name, connectors and required, or, for a text-back link (delivery=message), the message
// line it came from and where the completion callback goes. This module checks a link and says what
// its flow carries (lib/flow/ways-in/sign-in-link.ts opens it). Anything wrong is shown to the person;
// nothing is ever sent to an address that is not registered.
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "zod";
import { agentBySignInName } from "../agents/agents";
import { parseKeyFormat, resolveApiKey } from "../api-keys/api-keys";
import type { Plane } from "../platform/db/generated/enums";
import { parseRequiredParam, type RequiredEntry } from "../required/entries";
import { isRegisteredReturnDestination, normalizeDestination } from "./destinations";
import { linkConnectors, oneAppOf } from "./link-connectors";
import { activeLineFor } from "./message-lines";
import { messageLinkHash, verifiedMessageLinkPlane } from "./message-link";
import { now as clockNow } from "../platform/clock";

export const MAX_LINK_STATE_LENGTH = 2_048;
export const MAX_DISPLAY_NAME_LENGTH = 80;
export const MAX_JOURNEY_LENGTH = 200;
export const MAX_MESSAGE_BODY_LENGTH = 1_000;
const SINGLE_VALUED = [
  "return_to",
  "state",
  "display_name",
  "displayName",
  "required",
  "publishable_key",
  "delivery",
  "message_line_phone",
  "message_body",
  "message_complete_url",
  "journey",
  "channel",
  "exp",
  "sig",
];

/** A sign-in link that cannot open, with what the person is shown. */
export class SignInLinkError extends Error {
  constructor(
    readonly status: 400 | 404,
    readonly title: string,
    readonly text: string,
  ) {
    super(text);
    this.name = "SignInLinkError";
  }
}

export const LINK_MESSAGES = {
  unknownAgent: "This sign-in link does not lead to an app on this service. Go back to the app and try again.",
  repeated: (name: string) => `The link gives ${name} more than once. Go back to the app and start again.`,
  badKey: "The link's publishable key does not belong to this app. Go back to the app and start again.",
  returnNotRegistered: "The app has not registered the address this link returns to, so the service will not send you there. Go back to the app and start again.",
  badState: "The link's state is too long. Go back to the app and start again.",
  lineNotRegistered: "This link names a message line the app has not registered. Ask the app for a new link.",
  messageLinkNotSigned: "This link from a message has expired or was changed. Ask the app for a new one.",
  completeNotRegistered: "This link's completion address is not registered by the app. Ask the app for a new link.",
  tooLong: (name: string) => `The link's ${name} is too long. Ask the app for a new link.`,
} as const;

function refuse(text: string): never {
  throw new SignInLinkError(400, "This sign-in link cannot be used", text);
}

const nullableString = z.string().nullable();

/** What a hosted sign-in link ({sign_in_url}/<agent>) carries into its flow, as the flow stores it. */
export const signInLinkRequest = z.strictObject({
  /** The registered return destination the code goes back to; null when the link names none. */
  return_to: nullableString,
  state: nullableString,
  /** The name the hosted pages show for the app, when the link gives one. */
  display_name: nullableString,
  /** The connectors the link names (valid ones, as given). */
  connectors: z.array(z.string()),
  /** The link's /reconnect form: the connectors named need connecting again. */
  reconnect: z.boolean(),
  /** A text-back link (delivery=message): the message line it came from and what the completion callback carries. */
  message: z
    .strictObject({
      line_id: z.string(),
      channel: z.string(),
      complete_url: nullableString,
      journey: nullableString,
      body: nullableString,
      /** The signed link's hash: its completion callback goes out for the first flow to finish it only. */
      link_hash: z.string(),
    })
    .nullable(),
});
export type SignInLinkRequest = z.output<typeof signInLinkRequest>;

/** A sign-in link checked: the agent its flow is for, in which plane, and what the flow carries. */
export interface CheckedSignInLink {
  developerId: string;
  agentId: string;
  plane: Plane;
  request: SignInLinkRequest;
  required: RequiredEntry[];
}

/** The plane a link's flow runs in: its publishable key's, else the developer's own (a sandbox is the test plane). */
async function planeOf(agent: { developerId: string; developer: { sandbox: boolean } }, raw: string | null): Promise<Plane> {
  if (!raw) return agent.developer.sandbox ? "test" : "live";
  const key = parseKeyFormat(raw)?.kind === "publishable" ? await resolveApiKey(raw) : null;
  if (!key || key.kind !== "publishable" || key.developerId !== agent.developerId) refuse(LINK_MESSAGES.badKey);
  return key.plane;
}

function bounded(params: URLSearchParams, name: string, max: number): string | null {
  const value = params.get(name);
  if (value === null || value === "") return null;
  if (value.length > max) refuse(LINK_MESSAGES.tooLong(name.replace(/_/g, " ")));
  return value;
}

/** Checks a sign-in link: what its flow is for and carries, or a SignInLinkError with what the person is shown. */
export async function checkSignInLink(input: { name: string; reconnect: boolean; params: URLSearchParams }): Promise<CheckedSignInLink> {
  const { params } = input;
  const agent = await agentBySignInName(input.name);
  if (!agent) throw new SignInLinkError(404, "This sign-in link is not valid", LINK_MESSAGES.unknownAgent);
  for (const name of SINGLE_VALUED) if (params.getAll(name).length > 1) refuse(LINK_MESSAGES.repeated(name));
  const messageLink = params.get("delivery") === "message";
  // A text-back link names its plane by its signature; a publishable key, when one is given too, must agree.
  let plane = await planeOf(agent, params.get("publishable_key"));
  if (messageLink) {
    const planes: Plane[] = params.get("publishable_key") ? [plane] : ["live", "test"];
    const signed = verifiedMessageLinkPlane({ agentId: agent.id, reconnect: input.reconnect, params, planes, now: clockNow() });
    if (!signed) refuse(LINK_MESSAGES.messageLinkNotSigned);
    plane = signed;
  }

  const state = params.get("state");
  if (state && state.length > MAX_LINK_STATE_LENGTH) refuse(LINK_MESSAGES.badState);
  const displayName = (params.get("display_name") ?? params.get("displayName") ?? "").replace(/\p{Cc}/gu, "").trim();
  if (displayName.length > MAX_DISPLAY_NAME_LENGTH) refuse(LINK_MESSAGES.tooLong("display name"));

  let returnTo: string | null = null;
  const rawReturn = params.get("return_to");
  if (rawReturn) {
    returnTo = normalizeDestination(rawReturn);
    if (!returnTo || !(await isRegisteredReturnDestination({ agentId: agent.id, plane, url: returnTo }))) refuse(LINK_MESSAGES.returnNotRegistered);
  }

  let message: SignInLinkRequest["message"] = null;
  if (messageLink) {
    const channel = params.get("channel") || "sms";
    const phone = parsePhoneNumberFromString(params.get("message_line_phone") ?? "");
    const line = phone?.isPossible() ? await activeLineFor({ agentId: agent.id, plane, channel, e164: phone.number }) : null;
    if (!line) refuse(LINK_MESSAGES.lineNotRegistered);
    const completeUrl = bounded(params, "message_complete_url", 2_048);
    if (completeUrl && !(await isRegisteredReturnDestination({ agentId: agent.id, plane, url: completeUrl }))) refuse(LINK_MESSAGES.completeNotRegistered);
    message = {
      line_id: line.id,
      channel,
      complete_url: completeUrl && normalizeDestination(completeUrl),
      journey: bounded(params, "journey", MAX_JOURNEY_LENGTH),
      body: bounded(params, "message_body", MAX_MESSAGE_BODY_LENGTH),
      link_hash: messageLinkHash(params.get("sig")!),
    };
  }

  const connectors = linkConnectors(params);
  // The older Sheets page ignores required.
  const required = oneAppOf(connectors) === "sheets" ? [] : parseRequiredParam(params.get("required"));
  const request: SignInLinkRequest = {
    return_to: returnTo,
    state: state || null,
    display_name: displayName || null,
    connectors,
    reconnect: input.reconnect,
    message,
  };
  return { developerId: agent.developerId, agentId: agent.id, plane, request, required };
}
