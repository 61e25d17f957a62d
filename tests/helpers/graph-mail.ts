// A local server speaking Microsoft Graph v1.0 mail as the Outlook connector uses it: GET /me/messages
// ($search in KQL, $top, $select, $orderby, paged by @odata.nextLink with $skip or $skiptoken), GET
// /me/mailFolders/sentitems/messages (Prefer: outlook.body-content-type="text"), POST /me/sendMail and
// POST /me/messages/{id}/reply answering 202. Bearer tokens are checked by the caller's `authorize` (the
// local Microsoft provider's tokens and their scopes); Graph's own error bodies ({ error: { code,
// message, innerError } }) answer a refused token (401 InvalidAuthenticationToken), a missing permission
// (403 ErrorAccessDenied), throttling (429 with Retry-After) and bad requests.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Which permissions let a call through (any one of them), as Graph documents per method. */
const NEEDS = {
  read: ["Mail.Read", "Mail.ReadWrite", "Mail.ReadBasic"],
  send: ["Mail.Send"],
} as const;

export interface GraphRecipient {
  name: string;
  address: string;
}

export interface GraphFakeMessage {
  id: string;
  conversationId: string;
  folder: "inbox" | "sentitems";
  subject: string;
  /** Plain text; the API answers it as HTML unless text is preferred. */
  body: string;
  from: GraphRecipient;
  toRecipients: GraphRecipient[];
  ccRecipients?: GraphRecipient[];
  receivedDateTime: string;
  sentDateTime: string;
}

export interface GraphSent {
  kind: "sendMail" | "reply";
  /** The message replied to, for a reply. */
  replyTo?: string;
  saveToSentItems?: unknown;
  message: Record<string, any>;
}

export interface GraphMailbox {
  email: string;
  displayName: string;
  messages: GraphFakeMessage[];
  sent: GraphSent[];
}

export interface GraphInjectedFailure {
  path: RegExp;
  kind: "invalid_token" | "access_denied" | "throttled" | "service_unavailable";
  retryAfter?: number;
  times?: number;
}

export interface GraphRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  token: string;
  headers: IncomingMessage["headers"];
  status: number;
}

const ERRORS = {
  invalid_token: { status: 401, code: "InvalidAuthenticationToken", message: "Access token has expired or is not yet valid." },
  access_denied: { status: 403, code: "ErrorAccessDenied", message: "Access is denied. Check credentials and try again." },
  throttled: { status: 429, code: "ApplicationThrottled", message: "Application is over its MailboxConcurrency limit." },
  service_unavailable: { status: 503, code: "ServiceUnavailable", message: "The service is temporarily unavailable. Please try again later." },
  not_found: { status: 404, code: "ErrorItemNotFound", message: "The specified object was not found in the store." },
} as const;

/** Graph's OData query options on message lists that this server reads; any other $option is refused. */
const OPTIONS = new Set(["$search", "$top", "$select", "$orderby", "$skip", "$skiptoken", "$filter", "$count"]);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => resolve(raw));
  });
}

const address = (r: GraphRecipient) => ({ emailAddress: { name: r.name, address: r.address } });
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The KQL terms of a $search value: it must be one double-quoted string (" and \ escaped inside). */
function parseSearch(value: string): string[] | null {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return null;
  let inner = "";
  for (let i = 1; i < value.length - 1; i++) {
    const ch = value[i]!;
    if (ch === "\\") {
      const next = value[i + 1];
      if (next !== '"' && next !== "\\") return null;
      inner += next;
      i++;
    } else if (ch === '"') return null;
    else inner += ch;
  }
  return inner.toLowerCase().split(/\s+/).filter(Boolean);
}

function matches(m: GraphFakeMessage, terms: string[]): boolean {
  const from = `${m.from.name} ${m.from.address}`.toLowerCase();
  const to = m.toRecipients
    .map((r) => `${r.name} ${r.address}`)
    .join(" ")
    .toLowerCase();
  return terms.every((term) => {
    if (term.startsWith("from:")) return from.includes(term.slice(5));
    if (term.startsWith("to:")) return to.includes(term.slice(3));
    if (term.startsWith("subject:")) return m.subject.toLowerCase().includes(term.slice(8));
    // Without a property: from, subject and body, as Graph searches by default.
    return `${from} ${m.subject} ${m.body}`.toLowerCase().includes(term);
  });
}

export async function startGraphMail(opts: { authorize: (token: string) => Promise<{ account: string; scopes: string[] } | null> }) {
  const mailboxes = new Map<string, GraphMailbox>();
  const failures: GraphInjectedFailure[] = [];
  const requests: GraphRequest[] = [];
  const skipTokens = new Map<string, number>();
  let base = "";
  const mailbox = (id: string): GraphMailbox => {
    let m = mailboxes.get(id);
    if (!m) mailboxes.set(id, (m = { email: id, displayName: id, messages: [], sent: [] }));
    return m;
  };

  async function handle(req: IncomingMessage, res: ServerResponse, record: GraphRequest) {
    const url = new URL(req.url ?? "/", "http://local");
    const requestId = randomUUID();
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const common = { "request-id": requestId, "client-request-id": requestId, ...headers };
      if (body === undefined) return res.writeHead(status, common).end();
      res
        .writeHead(status, { "content-type": "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8", ...common })
        .end(JSON.stringify(body));
    };
    const fail = (kind: keyof typeof ERRORS | { status: number; code: string; message: string }, headers: Record<string, string> = {}) => {
      const e = typeof kind === "string" ? ERRORS[kind] : kind;
      const extra: Record<string, string> =
        e.status === 401
          ? {
              "www-authenticate":
                'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"',
            }
          : {};
      send(
        e.status,
        { error: { code: e.code, message: e.message, innerError: { date: new Date().toISOString().slice(0, 19), "request-id": requestId, "client-request-id": requestId } } },
        { ...extra, ...headers },
      );
    };
    const badRequest = (message: string, code = "BadRequest") => fail({ status: 400, code, message });

    const injected = failures.find((f) => f.path.test(url.pathname));
    if (injected) {
      if (injected.times !== undefined && --injected.times <= 0) failures.splice(failures.indexOf(injected), 1);
      return fail(injected.kind, injected.retryAfter !== undefined ? { "retry-after": String(injected.retryAfter) } : {});
    }
    if (!record.token) return fail({ ...ERRORS.invalid_token, message: "Access token is empty." });
    const who = await opts.authorize(record.token);
    if (!who) return fail("invalid_token");
    const allowed = (needs: readonly string[]) => who.scopes.some((s) => needs.includes(s));
    const me = mailbox(who.account);
    const raw = await readBody(req);

    const list = (folder: "inbox" | "sentitems" | null) => {
      if (!allowed(NEEDS.read)) return fail("access_denied");
      for (const key of url.searchParams.keys())
        if (key.startsWith("$") && !OPTIONS.has(key))
          return badRequest(`Query option '${key}' is not allowed. To get the list of allowed query options, see https://aka.ms/graph-docs.`);
      const search = url.searchParams.get("$search");
      const orderby = url.searchParams.get("$orderby");
      if (search !== null && orderby) return badRequest("The query parameter '$orderby' is not supported with '$search'.", "ErrorInvalidUrlQuery");
      const terms = search === null ? [] : parseSearch(search);
      if (!terms) return badRequest(`Syntax error: character '${search?.[0] ?? ""}' is not valid at position 0 in '${search}'.`);
      const top = Number(url.searchParams.get("$top") ?? 10);
      if (!Number.isInteger(top) || top < 1 || top > 1000) return badRequest("Invalid value for '$top'.", "ErrorInvalidUrlQuery");
      let items = me.messages.filter((m) => (!folder || m.folder === folder) && matches(m, terms));
      // $search answers by sent time; otherwise the $orderby asked for (received time by default).
      const key = search !== null ? "sentDateTime" : (orderby?.split(" ")[0] ?? "receivedDateTime");
      if (key !== "receivedDateTime" && key !== "sentDateTime") return badRequest(`Could not find a property named '${key}' on type 'microsoft.graph.message'.`);
      const descending = search !== null || !orderby || /\sdesc$/i.test(orderby);
      items = [...items].sort((a, b) => (Date.parse(b[key]) - Date.parse(a[key])) * (descending ? 1 : -1));
      let offset = 0;
      const skiptoken = url.searchParams.get("$skiptoken");
      if (skiptoken !== null) {
        if (!skipTokens.has(skiptoken)) return badRequest("The skip token is not valid.", "ErrorInvalidUrlQuery");
        offset = skipTokens.get(skiptoken)!;
      } else if (url.searchParams.has("$skip")) offset = Number(url.searchParams.get("$skip"));
      const page = items.slice(offset, offset + top);
      const end = offset + page.length;
      let nextLink: string | undefined;
      if (end < items.length) {
        const next = new URLSearchParams([...url.searchParams].filter(([k]) => k !== "$skip" && k !== "$skiptoken"));
        // Graph pages a search with an opaque $skiptoken, a plain listing with $skip.
        if (search !== null) {
          const token = randomBytes(12).toString("base64url");
          skipTokens.set(token, end);
          next.set("$skiptoken", token);
        } else next.set("$skip", String(end));
        nextLink = `${base}/v1.0/me/${folder === "sentitems" ? "mailFolders('SentItems')/messages" : "messages"}?${next.toString()}`;
      }
      const text = /outlook\.body-content-type="?text"?/i.test(String(req.headers.prefer ?? ""));
      const select = url.searchParams
        .get("$select")
        ?.split(",")
        .map((s) => s.trim());
      const view = (m: GraphFakeMessage) => {
        const full: Record<string, unknown> = {
          "@odata.etag": `W/"${m.id}"`,
          id: m.id,
          createdDateTime: m.receivedDateTime,
          lastModifiedDateTime: m.receivedDateTime,
          receivedDateTime: m.receivedDateTime,
          sentDateTime: m.sentDateTime,
          hasAttachments: false,
          internetMessageId: `<${m.id}@outlook.example>`,
          subject: m.subject,
          bodyPreview: m.body.slice(0, 255),
          importance: "normal",
          conversationId: m.conversationId,
          isRead: true,
          isDraft: false,
          webLink: `https://outlook.office365.com/owa/?ItemID=${m.id}`,
          body: text
            ? { contentType: "text", content: m.body }
            : { contentType: "html", content: `<html><body><div>${escapeHtml(m.body).replace(/\n/g, "<br>")}</div></body></html>` },
          sender: address(m.from),
          from: address(m.from),
          toRecipients: m.toRecipients.map(address),
          ccRecipients: (m.ccRecipients ?? []).map(address),
          bccRecipients: [],
          replyTo: [],
        };
        return select ? Object.fromEntries(Object.entries(full).filter(([k]) => k === "@odata.etag" || k === "id" || select.includes(k))) : full;
      };
      const context = `${base}/v1.0/$metadata#users('${encodeURIComponent(me.email)}')/messages${select ? `(${select.join(",")})` : ""}`;
      return send(
        200,
        { "@odata.context": context, value: page.map(view), ...(nextLink ? { "@odata.nextLink": nextLink } : {}) },
        text ? { "preference-applied": 'outlook.body-content-type="text"' } : {},
      );
    };

    const recipientsOf = (message: Record<string, any>, field: string): GraphRecipient[] | null => {
      const value = message[field] ?? [];
      if (!Array.isArray(value)) return null;
      const out: GraphRecipient[] = [];
      for (const r of value) {
        const a = r?.emailAddress?.address;
        if (typeof a !== "string" || !/^[^@\s]+@[^@\s]+$/.test(a)) return null;
        out.push({ name: r.emailAddress.name ?? a, address: a });
      }
      return out;
    };
    const json = () => {
      try {
        return JSON.parse(raw || "null") as Record<string, any> | null;
      } catch {
        return null;
      }
    };
    const keep = (message: Record<string, any>, conversationId: string) => {
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
      me.messages.push({
        id: `AAMk${randomBytes(12).toString("base64url")}`,
        conversationId,
        folder: "sentitems",
        subject: String(message.subject ?? ""),
        body: String(message.body?.content ?? ""),
        from: { name: me.displayName, address: me.email },
        toRecipients: recipientsOf(message, "toRecipients") ?? [],
        ccRecipients: recipientsOf(message, "ccRecipients") ?? [],
        receivedDateTime: now,
        sentDateTime: now,
      });
    };

    if (req.method === "GET" && url.pathname === "/v1.0/me/messages") return list(null);
    if (req.method === "GET" && /^\/v1\.0\/me\/mailFolders\/(sentitems|SentItems)\/messages$/.test(url.pathname)) return list("sentitems");
    if (req.method === "POST" && url.pathname === "/v1.0/me/sendMail") {
      if (!allowed(NEEDS.send)) return fail("access_denied");
      const body = json();
      if (!body || typeof body.message !== "object" || body.message === null) return badRequest("Empty Payload. JSON content expected.", "ErrorInvalidRequest");
      const unknown = Object.keys(body).filter((k) => k !== "message" && k !== "saveToSentItems");
      if (unknown.length)
        return badRequest(
          `The property '${unknown[0]}' does not exist on type 'microsoft.graph.sendMail'. Make sure to only use property names that are defined by the type or mark the type as open type.`,
          "RequestBodyRead",
        );
      const to = recipientsOf(body.message, "toRecipients");
      const cc = recipientsOf(body.message, "ccRecipients");
      if (!to || !cc || !to.length)
        return badRequest(
          "At least one recipient is not valid., Recipient '' is not resolved. All recipients must be resolved before a message can be submitted.",
          "ErrorInvalidRecipients",
        );
      me.sent.push({ kind: "sendMail", saveToSentItems: body.saveToSentItems, message: body.message });
      if (body.saveToSentItems !== false) keep(body.message, `AAQk${randomBytes(8).toString("base64url")}`);
      return send(202);
    }
    const reply = /^\/v1\.0\/me\/messages\/([^/]+)\/reply$/.exec(url.pathname);
    if (req.method === "POST" && reply) {
      if (!allowed(NEEDS.send)) return fail("access_denied");
      const original = me.messages.find((m) => m.id === decodeURIComponent(reply[1]!));
      if (!original) return fail("not_found");
      const body = json();
      if (!body || (body.message === undefined && body.comment === undefined)) return badRequest("Empty Payload. JSON content expected.", "ErrorInvalidRequest");
      if (body.comment !== undefined && body.message?.body !== undefined) return badRequest("Both comment and message.body were specified.", "ErrorInvalidRequest");
      me.sent.push({ kind: "reply", replyTo: original.id, message: body.message ?? {} });
      keep({ subject: `RE: ${original.subject}`, ...(body.message ?? {}) }, original.conversationId);
      return send(202);
    }
    return fail({ status: 400, code: "BadRequest", message: `Resource not found for the segment '${url.pathname.split("/").pop()}'.` });
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const record: GraphRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      token: (req.headers.authorization ?? "").replace(/^Bearer /, ""),
      headers: req.headers,
      status: 0,
    };
    requests.push(record);
    handle(req, res, record).catch((e) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    env: { MICROSOFT_GRAPH_URL: `${base}/v1.0` },
    mailbox,
    requests,
    /** The next `times` (default: every) requests whose path matches fail so. */
    inject(failure: GraphInjectedFailure) {
      failures.push(failure);
    },
    clearFailures() {
      failures.splice(0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
