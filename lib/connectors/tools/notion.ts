// The Notion connector tool: search the pages and databases the person shared with the service's
// Notion integration, by title. The same JSON on MCP and REST.
import { z } from "zod";
import { searchNotion } from "../apis/notion";
import { connectorTool, type ConnectorToolDefinition } from "./definition";
import { listLimit } from "./schemas";

const notionSearchInput = z.object({
  query: z.string().trim().max(500).default("").describe("Words in the title of the page or database. Empty: the most recently edited first."),
  type: z.enum(["page", "database"]).optional().describe("Only pages, or only databases. Default: both."),
  limit: listLimit,
  page_token: z.string().min(1).max(2048).optional().describe("next_page_token from the previous answer, for the next page."),
});

const notionSearch = connectorTool({
  name: "service_notion_search",
  title: "Search the user's Notion",
  description:
    "Search the pages and databases the user shared with this service in Notion, by title (Notion's own search and ranking; with no query, the most recently edited first). " +
    "Call it to find a note, plan or list the user keeps in Notion. " +
    'Returns { results: [{ id, object: "page" | "database", title, url, last_edited_time }], next_page_token }: titles and links, never page content. ' +
    "Pass next_page_token back as page_token for more. Fails with permission_needed (show the user its connect_url) until the user gives Notion to this agent, and with app_not_connected when Notion is not connected (mint a link with service_connect).",
  apps: ["notion"],
  input: notionSearchInput,
  output: z.object({
    results: z.array(z.object({ id: z.string(), object: z.enum(["page", "database"]), title: z.string(), url: z.string().nullable(), last_edited_time: z.string() })),
    next_page_token: z.string().nullable(),
  }),
  run: async (ctx, args) => searchNotion(await ctx.connection("notion"), { query: args.query, limit: args.limit, pageToken: args.page_token, object: args.type }),
});

export const NOTION_TOOLS: readonly ConnectorToolDefinition[] = [notionSearch];
