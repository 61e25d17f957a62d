// What a published card is: a ui:// resource whose HTML the server renders for its own addresses.

/** The addresses a card's HTML names, from configuration. */
export interface CardContext {
  /** {BASE_URL}/mcp-apps/service-mcp-host.js, with the bundle's version. */
  hostScriptUrl: string;
  /** {MCP_URL}/connect/: the only links a connect card shows and watches. */
  connectLinkPrefix: string;
}

export interface CardVersion {
  /** The resource id; it names the version and never changes meaning. */
  uri: string;
  name: string;
  title: string;
  description: string;
  html: (ctx: CardContext) => string;
}
