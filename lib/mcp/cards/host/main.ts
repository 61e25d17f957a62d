// The host script ({BASE_URL}/mcp-apps/service-mcp-host.js): every published card loads it. It
// connects the card to its host with the MCP Apps App client (postMessage), takes the host's theme,
// fonts, language and time zone, and hands the call's arguments and result to the card the page is.
import { App, PostMessageTransport, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import { mountConnectCard, type CardHost, type ConnectCard } from "./connect-card";

/** The cards this script mounts, by the page's data-card and data-card-version: every published one. */
const MOUNTS: Record<string, (root: HTMLElement, page: HTMLElement) => ConnectCard> = {
  "connect/8": (root, page) => mountConnectCard(root, page.dataset.connectLinks ?? ""),
};

function applyContext(context: McpUiHostContext, card: ConnectCard) {
  if (context.theme === "light" || context.theme === "dark") applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  const insets = context.safeAreaInsets;
  if (insets) {
    const style = document.documentElement.style;
    for (const side of ["top", "right", "bottom", "left"] as const) style.setProperty(`--safe-area-${side}`, `${Math.max(0, insets[side])}px`);
  }
  card.setFormat({ locale: context.locale, timeZone: context.timeZone });
}

async function start() {
  const page = document.documentElement;
  const root = document.querySelector<HTMLElement>("[data-card-root]");
  const mount = MOUNTS[`${page.dataset.card}/${page.dataset.cardVersion}`];
  if (!root || !mount) return;
  const card = mount(root, page);

  const app = new App({ name: "Profile Service connect card", version: page.dataset.cardVersion ?? "0" }, {}, { autoResize: true });
  let context: McpUiHostContext = {};
  // Handlers are set before connecting: the host sends the arguments and the result right after the handshake.
  app.ontoolinput = ({ arguments: args }) => card.setInput(args);
  app.ontoolresult = (result) => card.setResult(result);
  app.ontoolcancelled = () => card.setCancelled();
  app.onhostcontextchanged = (changed) => {
    context = { ...context, ...changed };
    applyContext(context, card);
  };
  app.onteardown = async () => {
    card.destroy();
    return {};
  };

  await app.connect(new PostMessageTransport(window.parent, window.parent));
  context = { ...(app.getHostContext() ?? {}), ...context };
  applyContext(context, card);

  const caps = app.getHostCapabilities() ?? {};
  const host: CardHost = {};
  if (caps.openLinks) {
    host.openLink = async (url) => !(await app.openLink({ url })).isError;
  }
  if (caps.serverTools) {
    host.renew = async (args) => app.callServerTool({ name: "service_connect", arguments: args });
  }
  if (caps.updateModelContext) {
    host.approved = (result) => {
      void app
        .updateModelContext({
          content: [{ type: "text", text: `The person finished the connect link ${result.connect_url}: it is approved. Calls that needed it can be retried now.` }],
        })
        .catch(() => undefined);
    };
  }
  card.setHost(host);
}

void start().catch((err: unknown) => {
  console.error("The card could not reach its host.", err);
});
