// The developer MCP server's tools: service_connect and the six profile tools, each calling the same
// lib function as its REST route, with the same input schema and the same JSON answer.
import { z } from "zod";
import { checkReturnUrl, mintConnectLink, personFor } from "../connect-links/links";
import { connectLinkBody } from "../connect-links/schemas";
import { submitCommit } from "../profile/commit";
import { forget, type ForgetSelector } from "../profile/forget";
import { importText } from "../profile/import-text";
import { readBox, readProfile } from "../profile/read";
import { remember } from "../profile/remember";
import { commitBody, forgetBody, importBody, profileQuery, profileSection, rememberBody, searchQuery } from "../profile/schemas";
import type { ProfileToolScope } from "../profile/scopes";
import { searchProfile } from "../profile/search";
import type { McpCaller } from "./caller";
import { CONNECT_TOOL_META } from "./cards/mcp";
import type { ConnectorToolDefinition } from "../connectors/tools/definition";
import { CONNECTOR_TOOL_DEFINITIONS, enabledConnectorTools } from "../connectors/tools/registry";

/** What a tool's work sees: the caller, and the approved user (personal tools only run with one). */
export interface ToolContext {
  caller: McpCaller;
  userId: string;
}

interface ToolBase<S extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** What tools/list shows of the tool besides its schema (an MCP App's ui.resourceUri). */
  _meta?: Record<string, unknown>;
}

/** A tool any caller may run: it needs no approved user. */
export interface OpenTool<S extends z.ZodObject = z.ZodObject> extends ToolBase<S> {
  personal: false;
  run: (caller: McpCaller, args: z.output<S>) => Promise<object>;
}

/** A tool that acts on the user's profile: it fails closed without an approved user. */
export interface PersonalTool<S extends z.ZodObject = z.ZodObject> extends ToolBase<S> {
  personal: true;
  /** The scope an OpenID Connect access token needs for it: the same as its REST route's. */
  scope: ProfileToolScope;
  /** Whether the answer carries livemode, as the REST route's does. */
  livemode: boolean;
  run: (ctx: ToolContext, args: z.output<S>) => Promise<object>;
}

/**
 * A connector tool (Gmail, Calendar, Drive, Notion, Outlook): token-authoritative, run through
 * lib/connectors/tools/run.ts with its live checks, the same as its REST route.
 */
export interface ConnectorMcpTool extends ToolBase<z.ZodObject> {
  personal: "connector";
  definition: ConnectorToolDefinition;
}

export type Tool = OpenTool | PersonalTool | ConnectorMcpTool;

const connectTool: OpenTool<typeof connectLinkBody> = {
  name: "service_connect",
  title: "Connect the user",
  personal: false,
  // Shown with the connect card (an MCP App) where the host renders one; the result is the same either way.
  _meta: CONNECT_TOOL_META,
  description:
    "Mint a connect link for the user: to sign in and approve this agent, connect an app (app), allow a capability (capability, e.g. gmail:send), or bring their profile. " +
    "Call it when another tool says the user must connect first, or when the user asks to connect an app. " +
    "Returns { status, connect_url, expires_at, instructions }: show connect_url to the user verbatim and follow instructions; the link is valid until expires_at and may be reused. " +
    "user_id (the developer's own id for the person) is only read when the request names nobody else.",
  input: connectLinkBody,
  run: async (caller, args) => {
    const { key, agent, person } = caller;
    if (args.return_url !== undefined) await checkReturnUrl({ developerId: key.developerId, url: args.return_url });
    const named = await personFor({
      developerId: key.developerId,
      plane: key.plane,
      agentId: agent.id,
      userId: person?.kind === "user" ? person.userId : null,
      externalId: person?.kind === "external" ? person.externalId : args.user_id,
    });
    return mintConnectLink({
      developerId: key.developerId,
      plane: key.plane,
      agent,
      ...named,
      app: args.app,
      capability: args.capability,
      purpose: args.purpose,
      clientName: args.client_name,
      returnUrl: args.return_url,
    });
  },
};

// Tool arguments are JSON, not a query string: sections is a list and detail a boolean; the rest is the REST query's.
const readInput = profileQuery.extend({ sections: z.array(profileSection).min(1).optional() });
const searchInput = searchQuery.extend({ detail: z.boolean().default(false) });

const readTool: PersonalTool<typeof readInput> = {
  name: "service_profile_read",
  title: "Read the user's profile",
  personal: true,
  scope: "profile.read",
  livemode: true,
  description:
    "Read what is known about the user: identity, preferences and a summary (sections narrows it to some of identity, preferences, summary), or one box of memories page by page (box, page). " +
    "Call it at the start of a conversation to personalize the answer. Reading opens an obligation to commit the turn with service_profile_commit; " +
    "an agent that keeps reading for 30 minutes without committing is refused with error code -32009 (commit_required) until it commits.",
  input: readInput,
  run: async ({ caller, userId }, args) =>
    args.box ? readBox({ userId, agentId: caller.agent.id, box: args.box, page: args.page }) : readProfile({ userId, agentId: caller.agent.id, sections: args.sections }),
};

const searchTool: PersonalTool<typeof searchInput> = {
  name: "service_profile_search",
  title: "Search the user's memories",
  personal: true,
  scope: "profile.search",
  livemode: true,
  description:
    "Full-text search over the memories about the user this agent can see, optionally by source, box and date range (from, to: YYYY-MM-DD or ISO 8601). " +
    "Call it when the answer depends on something specific the user said or did before. Returns the matching memories, best first (limit, default 10). " +
    "Like a read, it counts toward the commit obligation (-32009 commit_required after 30 minutes without a commit).",
  input: searchInput,
  run: async ({ caller, userId }, args) => searchProfile({ userId, agentId: caller.agent.id, ...args }),
};

const rememberTool: PersonalTool<typeof rememberBody> = {
  name: "service_profile_remember",
  title: "Remember a fact",
  personal: true,
  scope: "profile.remember",
  livemode: true,
  description:
    "Save one durable fact about the user (text, up to 1,000 characters), optionally in a box (identity, work, relationships, preferences, plans, other or projects/<slug>). " +
    "Call it when the user states something worth knowing next time; use resolves with a memory id to correct an earlier memory. Returns the saved memory, or why nothing was saved.",
  input: rememberBody,
  run: async ({ caller, userId }, args) =>
    remember({ userId, agent: caller.agent, text: args.text, box: args.box, kind: args.kind, replyTo: args.reply_to, resolves: args.resolves }),
};

const forgetTool: PersonalTool<typeof forgetBody> = {
  name: "service_profile_forget",
  title: "Forget memories",
  personal: true,
  scope: "profile.remember",
  livemode: true,
  description:
    "Delete memories this agent wrote, selected by exactly one of id, match (words), import_id or scope (imports, saved, all). " +
    "Call it when the user asks to forget something or a memory is wrong. Without confirm: true it only previews what would be deleted; call again with confirm: true to delete.",
  input: forgetBody,
  run: async ({ caller, userId }, args) => {
    const selector = (args.id ? { id: args.id } : args.match ? { match: args.match } : args.import_id ? { import_id: args.import_id } : { scope: args.scope! }) as ForgetSelector;
    return forget({ userId, agentId: caller.agent.id, selector, confirm: args.confirm, date: args.date, reason: args.reason, surface: "mcp" });
  },
};

const commitTool: PersonalTool<typeof commitBody> = {
  name: "service_profile_commit",
  title: "Commit the turn",
  personal: true,
  scope: "profile.commit",
  livemode: true,
  description:
    "Commit the conversation turn (messages, the response, and any explicit memories) so the profile learns from it. " +
    "Call it at the end of every turn in which the profile was read, and whenever another tool fails with -32009 (commit_required): the commit clears it, then retry. " +
    "Returns the commit's id and status (processing, or completed with sync: true).",
  input: commitBody,
  run: async ({ caller, userId }, args) =>
    submitCommit({
      userId,
      agent: caller.agent,
      messages: args.messages.map((m) => ({ role: m.role, content: m.content, at: m.at ? new Date(m.at) : null })),
      response: args.response,
      memories: args.memories,
      sync: args.sync,
    }),
};

const importTool: PersonalTool<typeof importBody> = {
  name: "service_profile_import",
  title: "Import text about the user",
  personal: true,
  scope: "profile.remember",
  livemode: true,
  description:
    "Distill a chunk of text about the user (up to 20,000 characters: notes, a bio, an exported chat) into memories, optionally into one box. " +
    "Call it when the user hands over text about themselves to remember. Returns what was saved.",
  input: importBody,
  run: async ({ caller, userId }, args) => importText({ userId, agent: caller.agent, text: args.text, box: args.box, kind: args.kind }),
};

/** The tools every caller lists: service_connect and the six profile tools. */
export const DEVELOPER_TOOLS: readonly Tool[] = [connectTool, readTool, searchTool, rememberTool, forgetTool, commitTool, importTool] as Tool[];

/** Each connector tool as an MCP tool, made once per process (tools/list caches listings per object). */
const CONNECTOR_MCP_TOOLS: readonly ConnectorMcpTool[] = CONNECTOR_TOOL_DEFINITIONS.map((definition) => ({
  name: definition.name,
  title: definition.title,
  description: definition.description,
  input: definition.input,
  personal: "connector",
  definition,
}));

/**
 * The connector tools (Gmail, Calendar, Drive, Notion; the Outlook-capable ones when the Outlook
 * connector is enabled here), listed on the developer server only to a request carrying a
 * linked-user token (lib/mcp/server.ts toolsFor).
 */
export function connectorTools(): readonly Tool[] {
  return enabledConnectorTools(CONNECTOR_MCP_TOOLS);
}

/** The personal MCP endpoint's tools after sign-in: exactly the six profile tools, never a connector or action tool. */
export const PERSONAL_TOOLS: readonly Tool[] = [readTool, searchTool, rememberTool, forgetTool, commitTool, importTool] as Tool[];
