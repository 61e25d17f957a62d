// Small server-rendered HTML answers of route handlers (an authorize error a person must see).
// They carry the product's look with inline styles, so they need no page bundle.

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Sent with every answer of the service: no page of it may be framed (next.config.mjs sets the same on pages). */
export const FRAME_DENY_HEADERS = { "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" } as const;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100dvh;display:flex;align-items:center;justify-content:center;padding:24px 16px;
font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
background:oklch(0.97 0.02 265);color:#0f172a;-webkit-font-smoothing:antialiased}
main{width:100%;max-width:28rem;background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:2rem 1.5rem;
box-shadow:0 1px 2px rgb(15 23 42/.05),0 8px 24px rgb(15 23 42/.06)}
.icon{width:3rem;height:3rem;border-radius:9999px;background:#fef2f2;color:#b91c1c;display:flex;align-items:center;justify-content:center}
h1{font-size:1.25rem;line-height:1.75rem;margin:1.25rem 0 .5rem;font-weight:600}
p{margin:0 0 1rem;line-height:1.6;color:#334155}
.dev{margin-top:1.5rem;padding:1rem;border-radius:.75rem;background:#f8fafc;border:1px solid #e2e8f0;font-size:.875rem}
.dev h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:#64748b;margin:0 0 .5rem;font-weight:600}
dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem}
dt{color:#64748b}dd{margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-word;color:#0f172a}
.brand{margin-top:1.5rem;font-size:.75rem;color:#64748b;text-align:center}
`;

/** A page telling a person that a sign-in request could not start, with the error for its developer. */
export function oauthErrorPage(input: { error: string; description: string; status: number }): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Sign-in could not start · Profile Service</title><style>${STYLE}</style></head>
<body><main role="main" aria-labelledby="title">
<div class="icon" aria-hidden="true"><svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><circle cx="12" cy="12" r="9"/><path d="M12 7.5v5"/><path d="M12 16.5h.01"/></svg></div>
<h1 id="title">Sign-in could not start</h1>
<p>The app that sent you here made a sign-in request we cannot accept, so nothing was shared with it. Go back to the app and try again; if this keeps happening, let the app&rsquo;s makers know.</p>
<section class="dev" aria-labelledby="dev-title"><h2 id="dev-title">For the app&rsquo;s developer</h2>
<dl><dt>error</dt><dd>${escapeHtml(input.error)}</dd><dt>error_description</dt><dd>${escapeHtml(input.description)}</dd></dl></section>
<p class="brand">Profile Service</p>
</main></body></html>`;
  return new Response(html, {
    status: input.status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Frame-Options": "DENY",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  });
}

/** A plain notice for a person (an expired or used link), in the same look. */
export function noticePage(input: { title: string; text: string; status: number }): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(input.title)} · Profile Service</title><style>${STYLE}</style></head>
<body><main role="main" aria-labelledby="title">
<h1 id="title">${escapeHtml(input.title)}</h1>
<p>${escapeHtml(input.text)}</p>
<p class="brand">Profile Service</p>
</main></body></html>`;
  return new Response(html, { status: input.status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...FRAME_DENY_HEADERS } });
}

/** How long a person's browser is asked to wait before trying a page again while the service is away. */
const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The page a person gets while the service cannot serve theirs (the database away): nothing they
 * entered is lost, and trying again in a moment works. Also the load balancer's page when no instance
 * is ready (deploy/unavailable.html holds the same text; tests/http/unavailable-page.test.ts keeps them one).
 */
export function unavailableHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>We&rsquo;ll be right back · Profile Service</title><style>${STYLE}
.icon.wait{background:#eff6ff;color:#1d4ed8}
a.button{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.625rem 1.25rem;border-radius:.625rem;background:#0f172a;color:#fff;font-weight:600;text-decoration:none}
a.button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
</style></head>
<body><main role="main" aria-labelledby="title">
<div class="icon wait" aria-hidden="true"><svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/></svg></div>
<h1 id="title">We&rsquo;ll be right back</h1>
<p>The service is briefly unavailable. Nothing you entered is lost: try again in a few seconds.</p>
<p><a class="button" href="">Try again</a></p>
<p class="brand">Profile Service</p>
</main></body></html>
`;
}

/** unavailableHtml as a 503 with Retry-After. */
export function unavailablePage(): Response {
  return new Response(unavailableHtml(), {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(UNAVAILABLE_RETRY_SECONDS),
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      "X-Frame-Options": "DENY",
    },
  });
}
