// A local server speaking Notion's OAuth and the part of its REST API the Notion connector uses.
// OAuth: /v1/oauth/authorize sends the browser straight back with a code (the person approves at
// once), /v1/oauth/token takes JSON with HTTP Basic client authentication (code and refresh grants),
// /v1/oauth/revoke ends a grant. API: POST /v1/search (query, filter, sort, start_cursor, page_size)
// over a seeded workspace, with the Notion-Version header required and Notion's own error bodies
// ({ object: "error", status, code, message }): 401 unauthorized, 403 restricted_resource, 429
// rate_limited with Retry-After, 400 missing_version and validation_error.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const NOTION_TEST_CLIENT = { id: "notion-test-client", secret: "notion-test-secret" };

export interface NotionFakeItem {
  id: string;
  object: "page" | "database";
  title: string;
  /** The name of a page's title property ("title" for a top-level page, "Name" in a database). */
  titleProperty?: string;
  last_edited_time: string;
  archived?: boolean;
  /** Page text: never answered by search, which matches titles only. */
  content?: string;
}

export interface NotionInjectedFailure {
  path: RegExp;
  kind: "unauthorized" | "restricted_resource" | "rate_limited" | "service_unavailable";
  retryAfter?: number;
  times?: number;
}

export interface NotionRequest {
  method: string;
  path: string;
  token: string;
  version: string | undefined;
  body: Record<string, any> | null;
  status: number;
}

const ERRORS = {
  unauthorized: { status: 401, code: "unauthorized", message: "API token is invalid." },
  restricted_resource: { status: 403, code: "restricted_resource", message: "Given the bearer token used, the client doesn't have permission to perform this operation." },
  rate_limited: { status: 429, code: "rate_limited", message: "You have been rate limited. Please try again in a few minutes." },
  service_unavailable: { status: 503, code: "service_unavailable", message: "Notion is unavailable, please try again later." },
} as const;

const rich = (text: string) => [
  {
    type: "text",
    text: { content: text, link: null },
    annotations: { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: "default" },
    plain_text: text,
    href: null,
  },
];
const slug = (item: NotionFakeItem) => `${item.title.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}-${item.id.replace(/-/g, "")}`;

/** An item as Notion's API (2022-06-28) answers it. */
function view(item: NotionFakeItem) {
  const common = {
    object: item.object,
    id: item.id,
    created_time: "2024-01-02T09:00:00.000Z",
    last_edited_time: item.last_edited_time,
    created_by: { object: "user", id: "notion-user-1" },
    last_edited_by: { object: "user", id: "notion-user-1" },
    cover: null,
    icon: null,
    parent: { type: "workspace", workspace: true },
    archived: !!item.archived,
    in_trash: !!item.archived,
    url: `https://www.notion.so/${slug(item)}`,
    public_url: null,
  };
  if (item.object === "database") {
    return {
      ...common,
      title: rich(item.title),
      description: [],
      is_inline: false,
      properties: { Name: { id: "title", name: "Name", type: "title", title: {} }, Tags: { id: "tags", name: "Tags", type: "multi_select", multi_select: { options: [] } } },
    };
  }
  const name = item.titleProperty ?? "title";
  return {
    ...common,
    properties: { ...(name === "title" ? {} : { Status: { id: "status", type: "select", select: null } }), [name]: { id: "title", type: "title", title: rich(item.title) } },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => resolve(raw));
  });
}

export async function startNotionServer(opts: { email: string }) {
  const codes = new Map<string, string>(); // code → redirect_uri
  const refreshTokens = new Map<string, string>(); // refresh → its access token
  const accessTokens = new Set<string>();
  const items: NotionFakeItem[] = [];
  const failures: NotionInjectedFailure[] = [];
  const requests: NotionRequest[] = [];
  let tokenRequests = 0;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const requestId = randomUUID();
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-notion-request-id": requestId, ...headers }).end(JSON.stringify(body));
    const notionError = (e: { status: number; code: string; message: string }, headers: Record<string, string> = {}) =>
      send(e.status, { object: "error", status: e.status, code: e.code, message: e.message, request_id: requestId }, headers);
    if (req.method === "GET" && url.pathname === "/v1/oauth/authorize") {
      if (url.searchParams.get("client_id") !== NOTION_TEST_CLIENT.id || url.searchParams.get("owner") !== "user") return send(400, { error: "invalid_request" });
      const code = randomBytes(8).toString("hex");
      const redirect = url.searchParams.get("redirect_uri")!;
      codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return res.writeHead(302, { location: back.toString() }).end();
    }
    void readBody(req).then((raw) => {
      if (!url.pathname.startsWith("/v1/oauth/")) {
        const record: NotionRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          token: (req.headers.authorization ?? "").replace(/^Bearer /, ""),
          version: req.headers["notion-version"] as string | undefined,
          body: null,
          status: 0,
        };
        requests.push(record);
        const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          record.status = status;
          send(status, body, headers);
        };
        const fail = (e: { status: number; code: string; message: string }, headers: Record<string, string> = {}) => {
          record.status = e.status;
          notionError(e, headers);
        };
        const injected = failures.find((f) => f.path.test(url.pathname));
        if (injected) {
          if (injected.times !== undefined && --injected.times <= 0) failures.splice(failures.indexOf(injected), 1);
          return fail(ERRORS[injected.kind], injected.retryAfter !== undefined ? { "retry-after": String(injected.retryAfter) } : {});
        }
        if (!accessTokens.has(record.token)) return fail(ERRORS.unauthorized);
        if (!record.version)
          return fail({
            status: 400,
            code: "missing_version",
            message: "Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.",
          });
        if (!/^\d{4}-\d{2}-\d{2}$/.test(record.version))
          return fail({
            status: 400,
            code: "validation_error",
            message: `Notion-Version header failed validation: Notion-Version header should be a valid version, instead was \`"${record.version}"\`.`,
          });
        if (!(req.method === "POST" && url.pathname === "/v1/search")) return fail({ status: 400, code: "invalid_request_url", message: "Invalid request URL." });
        let body: Record<string, any>;
        try {
          body = JSON.parse(raw || "{}");
        } catch {
          return fail({ status: 400, code: "invalid_json", message: "Error parsing JSON body." });
        }
        record.body = body;
        const invalid = (message: string) => fail({ status: 400, code: "validation_error", message: `body failed validation: ${message}` });
        const known = new Set(["query", "filter", "sort", "start_cursor", "page_size"]);
        const extra = Object.keys(body).find((k) => !known.has(k));
        if (extra) return invalid(`body.${extra} should be not present, instead was \`${JSON.stringify(body[extra])}\`.`);
        if (body.query !== undefined && typeof body.query !== "string") return invalid(`body.query should be a string, instead was \`${JSON.stringify(body.query)}\`.`);
        if (body.filter !== undefined && (body.filter?.property !== "object" || !["page", "database"].includes(body.filter?.value)))
          return invalid('body.filter.value should be `"page"` or `"database"`.');
        if (body.sort !== undefined && (body.sort?.timestamp !== "last_edited_time" || !["ascending", "descending"].includes(body.sort?.direction)))
          return invalid('body.sort.timestamp should be `"last_edited_time"`.');
        const size = body.page_size ?? 100;
        if (!Number.isInteger(size) || size < 1 || size > 100) return invalid(`body.page_size should be ≤ \`100\`, instead was \`${size}\`.`);
        const query = String(body.query ?? "").toLowerCase();
        let found = items.filter((i) => !i.archived && (!body.filter || i.object === body.filter.value) && i.title.toLowerCase().includes(query));
        if (body.sort) found = [...found].sort((a, b) => (Date.parse(b.last_edited_time) - Date.parse(a.last_edited_time)) * (body.sort.direction === "descending" ? 1 : -1));
        let offset = 0;
        if (body.start_cursor !== undefined) {
          // Notion's cursor is the id of the first result of the next page.
          offset = found.findIndex((i) => i.id === body.start_cursor);
          if (typeof body.start_cursor !== "string" || offset < 0)
            return invalid(`body.start_cursor should be a valid uuid, instead was \`${JSON.stringify(body.start_cursor)}\`.`);
        }
        const page = found.slice(offset, offset + size);
        const next = found[offset + size];
        return answer(200, {
          object: "list",
          results: page.map(view),
          next_cursor: next?.id ?? null,
          has_more: !!next,
          type: "page_or_database",
          page_or_database: {},
          request_id: requestId,
        });
      }
      const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      if (basic !== `${NOTION_TEST_CLIENT.id}:${NOTION_TEST_CLIENT.secret}`) return send(401, { error: "invalid_client" });
      if (!String(req.headers["content-type"]).startsWith("application/json")) return send(400, { error: "invalid_request" });
      const body = JSON.parse(raw || "{}") as Record<string, string>;
      const issue = () => {
        const refresh = `nrt_${randomBytes(8).toString("hex")}`;
        const access = `ntn_${randomBytes(8).toString("hex")}`;
        refreshTokens.set(refresh, access);
        accessTokens.add(access);
        return send(200, {
          access_token: access,
          refresh_token: refresh,
          expires_in: 3600,
          token_type: "bearer",
          bot_id: "bot-1",
          workspace_name: "Test workspace",
          owner: { type: "user", user: { id: "notion-user-1", person: { email: opts.email } } },
        });
      };
      if (url.pathname === "/v1/oauth/token") tokenRequests++;
      if (url.pathname === "/v1/oauth/token" && body.grant_type === "authorization_code") {
        if (codes.get(body.code!) !== body.redirect_uri) return send(400, { error: "invalid_grant" });
        codes.delete(body.code!);
        return issue();
      }
      if (url.pathname === "/v1/oauth/token" && body.grant_type === "refresh_token") {
        if (!refreshTokens.delete(body.refresh_token!)) return send(400, { error: "invalid_grant", error_description: "refresh token revoked" });
        return issue();
      }
      if (url.pathname === "/v1/oauth/revoke") {
        // The grant ends: the token named, and its pair.
        for (const [refresh, access] of refreshTokens) {
          if (refresh === body.token || access === body.token) {
            refreshTokens.delete(refresh);
            accessTokens.delete(access);
          }
        }
        accessTokens.delete(body.token!);
        return send(200, {});
      }
      send(404, { error: "not_found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      NOTION_CLIENT_ID: NOTION_TEST_CLIENT.id,
      NOTION_CLIENT_SECRET: NOTION_TEST_CLIENT.secret,
      NOTION_AUTHORIZATION_URL: `${base}/v1/oauth/authorize`,
      NOTION_TOKEN_URL: `${base}/v1/oauth/token`,
      NOTION_REVOCATION_URL: `${base}/v1/oauth/revoke`,
      NOTION_API_URL: `${base}/v1`,
    },
    /** The browser at Notion: approval is immediate, so one redirect brings it back. */
    async consent(url: URL): Promise<URL> {
      const res = await fetch(url, { redirect: "manual" });
      return new URL(res.headers.get("location")!);
    },
    isRefreshValid: (token: string) => refreshTokens.has(token),
    /** The workspace's pages and databases (shared with the integration), for search. */
    items,
    requests,
    /** Ends one access token and nothing else of its grant, as Notion refusing a token does. */
    expireAccessToken: (token: string) => void accessTokens.delete(token),
    /** Requests the token endpoint has answered (code exchanges and refreshes). */
    tokenRequests: () => tokenRequests,
    /** The next `times` (default: every) API requests whose path matches fail so. */
    inject(failure: NotionInjectedFailure) {
      failures.push(failure);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
