// The cards on the developer MCP server: each version a ui:// resource (MCP Apps, text/html;profile=mcp-app)
// with the origins its page needs, and the _meta by which service_connect names the current one.
import type { McpUiResourceMeta } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { env } from "../../env";
import type { McpResource } from "../json-rpc";
import { hostScriptUrl } from "./host-script";
import { CARDS, CONNECT_CARD } from "./registry";
import type { CardContext } from "./types";

export { RESOURCE_MIME_TYPE as CARD_MIME_TYPE };

/** service_connect's _meta: the card its result is shown with (the current and the older key hosts read). */
export const CONNECT_TOOL_META: Record<string, unknown> = {
  ui: { resourceUri: CONNECT_CARD.uri },
  [RESOURCE_URI_META_KEY]: CONNECT_CARD.uri,
};

/**
 * What a card's page may reach, for the host's Content Security Policy: the host script from BASE_URL,
 * and the link status from MCP_URL. Nothing else; no frames, no permissions.
 */
export function cardResourceMeta(): { ui: McpUiResourceMeta } {
  const { BASE_URL, MCP_URL } = env();
  return {
    ui: {
      csp: { resourceDomains: [new URL(BASE_URL).origin], connectDomains: [new URL(MCP_URL).origin] },
      prefersBorder: false,
    },
  };
}

async function cardContext(): Promise<CardContext> {
  return { hostScriptUrl: await hostScriptUrl(), connectLinkPrefix: `${env().MCP_URL}/connect/` };
}

/**
 * Every published card as a resource of the developer MCP server: listed by resources/list with its
 * CSP (for hosts to review up front), served by resources/read as the MCP Apps MIME type
 * (text/html;profile=mcp-app), with the CSP again on the content, where hosts look first.
 */
export function cardResources(): readonly McpResource[] {
  const meta = cardResourceMeta();
  return CARDS.map((card) => ({
    uri: card.uri,
    name: card.name,
    metadata: { title: card.title, description: card.description, mimeType: RESOURCE_MIME_TYPE, _meta: meta },
    read: async () => ({ contents: [{ uri: card.uri, mimeType: RESOURCE_MIME_TYPE, text: card.html(await cardContext()), _meta: meta }] }),
  }));
}
