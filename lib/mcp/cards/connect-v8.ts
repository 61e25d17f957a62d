// The connect card, version 8 (ui://service/connect/v8.html): the link a person opens, what it asks
// for, until when, and whether it is done. Its markup and styles are fixed once published; the host
// script fills the slots it names (lib/mcp/cards/host/connect-card.ts) and must keep filling them.
import type { CardContext, CardVersion } from "./types";

const STYLES = `
:root {
  color-scheme: light dark;
  --color-background-primary: light-dark(#ffffff, #18181b);
  --color-background-secondary: light-dark(#f5f6fb, #232329);
  --color-background-info: light-dark(#eef2ff, #23224a);
  --color-background-success: light-dark(#ecfdf3, #10291c);
  --color-background-warning: light-dark(#fff7ed, #2f2111);
  --color-background-danger: light-dark(#fef2f2, #331515);
  --color-text-primary: light-dark(#0f172a, #f4f4f5);
  --color-text-secondary: light-dark(#475569, #b4b4bd);
  --color-text-tertiary: light-dark(#64748b, #8e8e99);
  --color-text-info: light-dark(#4338ca, #b4bcff);
  --color-text-success: light-dark(#047857, #7ee2b3);
  --color-text-warning: light-dark(#b45309, #f7c77f);
  --color-text-danger: light-dark(#b91c1c, #fca5a5);
  --color-border-primary: light-dark(#e2e8f0, #34343c);
  --color-ring-primary: light-dark(#6366f1, #a5b4fc);
  --font-sans: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --font-mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  --border-radius-md: 10px;
  --border-radius-xl: 18px;
  --border-radius-full: 9999px;
  --shadow-sm: 0 1px 2px rgb(15 23 42 / 0.05), 0 2px 8px rgb(15 23 42 / 0.06);
  --card-accent: light-dark(#4338ca, #a5b4fc);
  --card-accent-hover: light-dark(#3730a3, #c7d2fe);
  --card-on-accent: light-dark(#ffffff, #111132);
}
*, *::before, *::after { box-sizing: border-box; }
html, body { margin: 0; background: transparent; }
body {
  font-family: var(--font-sans);
  color: var(--color-text-primary);
  font-size: 15px;
  line-height: 1.5;
  -webkit-font-smoothing: antialiased;
  padding: calc(4px + var(--safe-area-top, 0px)) calc(4px + var(--safe-area-right, 0px)) calc(4px + var(--safe-area-bottom, 0px)) calc(4px + var(--safe-area-left, 0px));
}
.card {
  max-width: 560px;
  margin: 0;
  padding: 20px;
  background: var(--color-background-primary);
  border: 1px solid var(--color-border-primary);
  border-radius: var(--border-radius-xl);
  box-shadow: var(--shadow-sm);
}
.brand { display: flex; align-items: center; gap: 10px; min-height: 28px; }
.brand svg { flex: none; width: 28px; height: 28px; }
.brand-name { flex: 1; min-width: 0; font-size: 13px; font-weight: 600; color: var(--color-text-secondary); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.pill {
  flex: none; display: inline-flex; align-items: center; gap: 6px;
  padding: 3px 10px; border-radius: var(--border-radius-full);
  font-size: 12px; font-weight: 600; letter-spacing: 0.01em;
  background: var(--color-background-secondary); color: var(--color-text-secondary);
}
.pill::before { content: ""; width: 7px; height: 7px; border-radius: 50%; background: currentColor; }
[data-state="pending"] .pill { background: var(--color-background-info); color: var(--color-text-info); }
[data-state="pending"] .pill::before { animation: pulse 1.6s ease-in-out infinite; }
[data-state="approved"] .pill { background: var(--color-background-success); color: var(--color-text-success); }
[data-state="expired"] .pill, [data-state="unknown"] .pill { background: var(--color-background-warning); color: var(--color-text-warning); }
[data-state="failed"] .pill { background: var(--color-background-danger); color: var(--color-text-danger); }
h1 { margin: 16px 0 0; font-size: 20px; line-height: 1.3; font-weight: 700; letter-spacing: -0.01em; overflow-wrap: anywhere; }
.lead { margin: 6px 0 0; color: var(--color-text-secondary); overflow-wrap: anywhere; }
.done { display: none; }
[data-state="approved"] .done {
  display: flex; align-items: center; justify-content: center;
  width: 44px; height: 44px; margin-top: 16px; border-radius: 50%;
  background: var(--color-background-success); color: var(--color-text-success);
}
[data-state="approved"] h1 { margin-top: 12px; }
.action { margin-top: 18px; }
.button {
  display: flex; align-items: center; justify-content: center; gap: 8px;
  width: 100%; min-height: 48px; padding: 12px 20px;
  border: 0; border-radius: var(--border-radius-md);
  background: var(--card-accent); color: var(--card-on-accent);
  font: inherit; font-size: 16px; font-weight: 600; text-decoration: none; cursor: pointer;
  transition: background-color 120ms ease;
}
.button:hover { background: var(--card-accent-hover); }
.button svg { width: 18px; height: 18px; flex: none; }
.button.secondary { margin-top: 16px; background: var(--color-background-secondary); color: var(--color-text-primary); border: 1px solid var(--color-border-primary); }
.button.secondary:hover { background: var(--color-background-info); }
.button:disabled { opacity: 0.6; cursor: progress; }
:focus-visible { outline: 3px solid var(--color-ring-primary); outline-offset: 2px; }
.url { margin: 8px 0 0; font-family: var(--font-mono); font-size: 12px; color: var(--color-text-tertiary); overflow-wrap: anywhere; text-wrap: balance; text-align: center; user-select: all; }
.details { margin: 18px 0 0; padding: 4px 14px; border-radius: var(--border-radius-md); background: var(--color-background-secondary); }
.details > div { display: grid; grid-template-columns: 1fr; gap: 2px; padding: 10px 0; }
.details > div:not([hidden]) ~ div:not([hidden]) { border-top: 1px solid var(--color-border-primary); }
.details > div[hidden] { display: none; }
dt { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: 0.05em; color: var(--color-text-tertiary); }
dd { margin: 0; overflow-wrap: anywhere; }
[data-slot="permission"]::first-letter { text-transform: uppercase; }
.when { display: block; color: var(--color-text-secondary); font-size: 13px; }
.relative { font-weight: 600; }
.status { display: flex; align-items: center; gap: 8px; margin: 16px 0 0; font-size: 13px; color: var(--color-text-secondary); }
.status::before { content: ""; flex: none; width: 14px; height: 14px; border-radius: 50%; border: 2px solid var(--color-border-primary); }
[data-state="loading"] .status::before, [data-state="pending"] .status::before { border-top-color: var(--card-accent); animation: spin 0.9s linear infinite; }
[data-state="approved"] .status::before { border-color: var(--color-text-success); background: var(--color-text-success); }
[data-state="expired"] .status::before, [data-state="unknown"] .status::before { border-color: var(--color-text-warning); }
[data-state="failed"] .status::before, [data-state="cancelled"] .status::before { border-color: var(--color-text-danger); }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
[hidden] { display: none !important; }
@keyframes spin { to { transform: rotate(360deg); } }
@keyframes pulse { 50% { opacity: 0.35; } }
@media (prefers-reduced-motion: reduce) { *, *::before { animation: none !important; transition: none !important; } }
@media (min-width: 480px) {
  .card { padding: 24px 28px; }
  h1 { font-size: 22px; }
  .action { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; }
  .action .button { width: auto; }
  .url { margin: 0; flex: 1; min-width: 0; text-align: left; }
  .details > div { grid-template-columns: 120px 1fr; gap: 12px; align-items: baseline; }
  .button.secondary { width: auto; }
}
`;

const LOGO = `<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#4338ca"/><circle cx="16" cy="12.5" r="5" fill="#fff"/><path d="M7 26c1.6-4.6 5-7 9-7s7.4 2.4 9 7" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>`;
const ARROW = `<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M7 4h9v9M16 4 5 15" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
const CHECK = `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><path d="m5 12.5 4.5 4.5L19 7.5" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** Attribute text: the addresses come from configuration, still escaped. */
function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function html({ hostScriptUrl, connectLinkPrefix }: CardContext): string {
  return `<!doctype html>
<html lang="en" data-card="connect" data-card-version="8" data-connect-links="${attr(connectLinkPrefix)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect with Profile Service</title>
<style>${STYLES}</style>
</head>
<body>
<main class="card" data-card-root data-state="loading" aria-busy="true" aria-labelledby="card-title">
  <div class="brand">${LOGO}<span class="brand-name">Profile Service</span><span class="pill" data-slot="pill">Preparing</span></div>
  <div class="done">${CHECK}</div>
  <h1 id="card-title" data-slot="title">Preparing your link…</h1>
  <p class="lead" data-slot="lead" hidden></p>
  <div class="action" data-slot="action" hidden>
    <a class="button" data-slot="link" href="#" target="_blank" rel="noopener noreferrer">Open link${ARROW}<span class="visually-hidden"> (opens in a new tab)</span></a>
    <p class="url"><span class="visually-hidden">Link: </span><span data-slot="url"></span></p>
  </div>
  <dl class="details" data-slot="details" hidden>
    <div data-slot="app-row" hidden><dt>App</dt><dd data-slot="app"></dd></div>
    <div data-slot="permission-row" hidden><dt>Permission</dt><dd data-slot="permission"></dd></div>
    <div data-slot="purpose-row" hidden><dt>Purpose</dt><dd data-slot="purpose"></dd></div>
    <div data-slot="expiry-row"><dt data-slot="expiry-label">Expires</dt><dd><span class="relative" data-slot="expires-relative"></span><time class="when" data-slot="expires-at"></time></dd></div>
  </dl>
  <p class="status" role="status" aria-live="polite" aria-atomic="true" data-slot="status">Preparing your link…</p>
  <button type="button" class="button secondary" data-slot="renew" hidden>Get a new link</button>
</main>
<script src="${attr(hostScriptUrl)}"></script>
</body>
</html>
`;
}

export const connectCardV8: CardVersion = {
  uri: "ui://service/connect/v8.html",
  name: "connect-card-v8",
  title: "Connect card (version 8)",
  description:
    "The card service_connect's result is shown with: the link to open, the app and purpose it names, its expiry, and its status (pending, approved or expired), updated as the person finishes.",
  html,
};
