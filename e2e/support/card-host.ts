// A chat host's page for MCP App cards (e2e/support/card-host-page.ts, bundled here with esbuild): a
// conversation with the card mounted under the assistant's message, in the host's light or dark theme.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";

let bundled: Promise<string> | undefined;

function hostScript(): Promise<string> {
  bundled ??= build({
    entryPoints: [path.resolve("e2e/support/card-host-page.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2020",
    write: false,
    logLevel: "silent",
  }).then((out) => out.outputFiles[0]!.text);
  return bundled;
}

/**
 * The host's own server, on this machine's loopback address like the service's: a page on a public
 * address may not reach a private one (Chromium's local network access checks), so a host page
 * served from anywhere else could not load the card's script from a local service.
 */
export async function startChatHost(): Promise<{ url: (theme: "light" | "dark") => string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const theme = new URL(req.url ?? "/", "http://host").searchParams.get("theme") === "dark" ? "dark" : "light";
    void hostPage(theme).then((body) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (theme) => `http://127.0.0.1:${port}/conversation?theme=${theme}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function hostPage(theme: "light" | "dark"): Promise<string> {
  const script = (await hostScript()).replace(/<\/script/gi, "<\\/script");
  return `<!doctype html>
<html lang="en" style="color-scheme: ${theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat host</title>
<style>
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; background: ${theme === "dark" ? "#111114" : "#f4f4f5"}; color: ${theme === "dark" ? "#e4e4e7" : "#18181b"}; }
  .chat { max-width: 720px; margin: 0 auto; padding: 16px 12px 32px; display: flex; flex-direction: column; gap: 12px; }
  .user { align-self: flex-end; max-width: 85%; margin: 0; padding: 10px 14px; border-radius: 16px 16px 4px 16px; background: ${theme === "dark" ? "#2a2a31" : "#e4e4e7"}; }
  .assistant { margin: 0; }
  iframe { display: block; width: 100%; height: 360px; border: 0; }
</style>
</head>
<body>
<main class="chat">
  <p class="user">Send my booking confirmations from Gmail, please.</p>
  <p class="assistant">I need your permission first. Open the link below; I'll carry on once you're done.</p>
  <div id="card-slot"></div>
</main>
<script>${script}</script>
</body>
</html>`;
}
