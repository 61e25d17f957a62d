// Runs in the browser: a chat host's side of MCP Apps, made with ext-apps' AppBridge. It mounts a card's
// HTML in a sandboxed iframe (scripts only, an opaque origin) under the Content Security Policy the
// resource declares, hands it the tool's arguments and result, opens links, proxies tools/call to the
// test, and records what the card asked of it. Bundled by e2e/support/card-host.ts.
import { AppBridge, PostMessageTransport, type McpUiHostCapabilities, type McpUiHostContext, type McpUiResourceCsp } from "@modelcontextprotocol/ext-apps/app-bridge";

export interface MountOptions {
  html: string;
  csp?: McpUiResourceCsp;
  toolInput: Record<string, unknown>;
  toolResult: Record<string, unknown>;
  hostContext: McpUiHostContext;
  capabilities: McpUiHostCapabilities;
}

export interface HostLog {
  openedLinks: string[];
  modelContext: unknown[];
  heights: number[];
}

declare global {
  interface Window {
    mountCard: (options: MountOptions) => Promise<void>;
    setHostContext: (context: McpUiHostContext) => void;
    hostLog: HostLog;
    /** Provided by the test (page.exposeFunction): tools/call on the real MCP server. */
    callServerTool?: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<Record<string, unknown>>;
  }
}

/** The policy the spec has hosts build from ui.csp (restrictive defaults for what is not declared). */
function policy(csp: McpUiResourceCsp = {}): string {
  const resources = (csp.resourceDomains ?? []).join(" ");
  const connect = csp.connectDomains?.length ? csp.connectDomains.join(" ") : "'none'";
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${connect}`,
    `frame-src ${csp.frameDomains?.length ? csp.frameDomains.join(" ") : "'none'"}`,
    "object-src 'none'",
    `base-uri ${csp.baseUriDomains?.length ? csp.baseUriDomains.join(" ") : "'self'"}`,
  ].join("; ");
}

window.hostLog = { openedLinks: [], modelContext: [], heights: [] };
let bridge: AppBridge | undefined;

window.setHostContext = (context) => bridge?.setHostContext(context);

window.mountCard = async (options) => {
  const frame = document.createElement("iframe");
  frame.title = "Connect card";
  frame.setAttribute("sandbox", "allow-scripts");
  document.getElementById("card-slot")!.append(frame);

  bridge = new AppBridge(null, { name: "e2e-host", version: "1.0.0" }, options.capabilities, { hostContext: options.hostContext });
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => {
      void bridge!.sendToolInput({ arguments: options.toolInput }).then(() => bridge!.sendToolResult(options.toolResult as never));
      resolve();
    };
  });
  bridge.onsizechange = ({ height }) => {
    if (height === undefined) return;
    window.hostLog.heights.push(height);
    frame.style.height = `${height}px`;
  };
  bridge.onopenlink = async ({ url }) => {
    window.hostLog.openedLinks.push(url);
    window.open(url, "_blank", "noopener");
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    window.hostLog.modelContext.push(params);
    return {};
  };
  bridge.oncalltool = async (params) => {
    if (!window.callServerTool) throw new Error("No MCP server behind this host.");
    return (await window.callServerTool({ name: params.name, arguments: params.arguments })) as never;
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));

  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(options.csp).replace(/"/g, "&quot;")}">`;
  frame.srcdoc = options.html.replace(/<head>/i, `<head>\n${meta}`);
  await initialized;
};
