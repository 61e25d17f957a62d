// A local server speaking Google's REST APIs as the connector tools use them: Gmail API v1
// (users.messages list, get with format=metadata/full, send with a raw RFC 5322 message), Calendar API
// v3 (events list and insert on the primary calendar) and Drive API v3 (files.list with Drive's query
// language). Bearer tokens are checked by the caller's `authorize` (the local Google provider's tokens
// and their scopes); Google's own error bodies and headers answer a refused token (401), a missing
// scope (403 ACCESS_TOKEN_SCOPE_INSUFFICIENT), a rate limit (429 with Retry-After) and bad parameters.
// Gmail's batch endpoint (POST /batch/gmail/v1) takes up to 100 GET calls in one multipart/mixed body
// and answers each in a part of its own, paired by Content-ID and in reverse order (Google answers in
// any order); each call is served, checked and recorded as if sent alone, with the batch's token.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

const SCOPE = "https://www.googleapis.com/auth/";
const FULL_GMAIL = "https://mail.google.com/";
/** Which scopes let a call through (any one of them), as Google documents per method. */
const NEEDS = {
  gmailRead: [`${SCOPE}gmail.readonly`, `${SCOPE}gmail.modify`, FULL_GMAIL],
  gmailSend: [`${SCOPE}gmail.send`, `${SCOPE}gmail.compose`, `${SCOPE}gmail.modify`, FULL_GMAIL],
  calendarRead: [`${SCOPE}calendar.readonly`, `${SCOPE}calendar`, `${SCOPE}calendar.events`, `${SCOPE}calendar.events.readonly`],
  calendarWrite: [`${SCOPE}calendar`, `${SCOPE}calendar.events`],
  driveRead: [`${SCOPE}drive.readonly`, `${SCOPE}drive`, `${SCOPE}drive.metadata.readonly`, `${SCOPE}drive.file`],
} as const;

export interface FakeMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  headers: Array<{ name: string; value: string }>;
  snippet: string;
  body: string;
  internalDate: number;
}

export interface SentMessage {
  id: string;
  threadId: string;
  raw: string;
  /** The headers as parsed from raw, unfolded, in order. */
  headers: Array<{ name: string; value: string }>;
  subject: string;
  body: string;
}

export interface FakeEvent {
  id: string;
  summary: string;
  start: { dateTime?: string; date?: string; timeZone?: string };
  end: { dateTime?: string; date?: string; timeZone?: string };
  description?: string;
  location?: string;
  attendees?: Array<{ email: string; responseStatus?: string }>;
  recurrence?: string[];
  recurringEventId?: string;
  organizer?: { email: string; self?: boolean };
  status?: string;
  /** sendUpdates of the insert that made it. */
  sendUpdates?: string | null;
}

export interface FakeFile {
  id: string;
  name: string;
  mimeType: string;
  modifiedTime: string;
  text: string;
  ownedByMe?: boolean;
  trashed?: boolean;
}

export interface FakeAccount {
  email: string;
  messages: FakeMessage[];
  sent: SentMessage[];
  events: FakeEvent[];
  files: FakeFile[];
}

/** A failure the next matching requests get instead of their answer. */
export interface InjectedFailure {
  path: RegExp;
  kind: "invalid_token" | "insufficient_scope" | "rate_limit" | "rate_limit_403" | "server_error" | "not_found";
  retryAfter?: number;
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  token: string;
  status: number;
  /** For a call sent inside a batch: the batch request's path. */
  batch?: string;
}

const err = (code: number, message: string, status: string, errors: object[], details?: object[]) => ({
  error: { code, message, errors, status, ...(details ? { details } : {}) },
});

function googleError(
  kind: InjectedFailure["kind"] | "not_found" | "invalid" | "bad_request",
  detail?: { service?: string; location?: string; message?: string },
): { status: number; headers: Record<string, string>; body: unknown } {
  switch (kind) {
    case "invalid_token":
      return {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
        body: err(
          401,
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
          "UNAUTHENTICATED",
          [{ message: "Invalid Credentials", domain: "global", reason: "authError", location: "Authorization", locationType: "header" }],
          [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "ACCESS_TOKEN_EXPIRED",
              domain: "googleapis.com",
              metadata: { service: detail?.service ?? "gmail.googleapis.com" },
            },
          ],
        ),
      };
    case "insufficient_scope":
      return {
        status: 403,
        headers: { "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"' },
        body: err(
          403,
          "Request had insufficient authentication scopes.",
          "PERMISSION_DENIED",
          [{ message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" }],
          [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
              domain: "googleapis.com",
              metadata: { service: detail?.service ?? "gmail.googleapis.com" },
            },
          ],
        ),
      };
    case "rate_limit":
      return {
        status: 429,
        headers: {},
        body: err(429, "Too many concurrent requests for user.", "RESOURCE_EXHAUSTED", [
          { message: "Too many concurrent requests for user.", domain: "global", reason: "rateLimitExceeded" },
        ]),
      };
    case "rate_limit_403":
      return {
        status: 403,
        headers: {},
        body: err(403, "User Rate Limit Exceeded", "PERMISSION_DENIED", [{ message: "User Rate Limit Exceeded", domain: "usageLimits", reason: "userRateLimitExceeded" }]),
      };
    case "server_error":
      return {
        status: 500,
        headers: {},
        body: err(500, "Internal error encountered.", "INTERNAL", [{ message: "Internal error encountered.", domain: "global", reason: "backendError" }]),
      };
    case "not_found":
      return {
        status: 404,
        headers: {},
        body: err(404, "Requested entity was not found.", "NOT_FOUND", [{ message: "Requested entity was not found.", domain: "global", reason: "notFound" }]),
      };
    case "invalid":
      return {
        status: 400,
        headers: {},
        body: err(400, detail?.message ?? "Invalid Value", "INVALID_ARGUMENT", [
          { message: detail?.message ?? "Invalid Value", domain: "global", reason: "invalid", location: detail?.location ?? "q", locationType: "parameter" },
        ]),
      };
    case "bad_request":
      return {
        status: 400,
        headers: {},
        body: err(400, detail?.message ?? "Bad Request", "INVALID_ARGUMENT", [{ message: detail?.message ?? "Bad Request", domain: "global", reason: "badRequest" }]),
      };
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => resolve(raw));
  });
}

/** A page of `items` by an opaque token carrying the offset. */
function paginate<T>(items: T[], max: number, token: string | null): { page: T[]; next?: string } | null {
  let offset = 0;
  if (token) {
    const decoded = /^p(\d+)$/.exec(Buffer.from(token, "base64url").toString());
    if (!decoded) return null;
    offset = Number(decoded[1]);
  }
  const page = items.slice(offset, offset + max);
  const end = offset + page.length;
  return { page, ...(end < items.length ? { next: Buffer.from(`p${end}`).toString("base64url") } : {}) };
}

/** Decodes RFC 2047 encoded words (the B and Q forms, UTF-8). */
function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=(\s+(?==\?))?/gi, (_all, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

/** Parses an RFC 5322 message: unfolded headers and the decoded body. */
export function parseMessage(raw: string): { headers: Array<{ name: string; value: string }>; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = split < 0 ? raw : raw.slice(0, split);
  const rest = split < 0 ? "" : raw.slice(split + 4);
  const headers: Array<{ name: string; value: string }> = [];
  for (const line of head.split("\r\n")) {
    if (/^[ \t]/.test(line) && headers.length) headers[headers.length - 1]!.value += line.replace(/^[ \t]+/, " ");
    else {
      const colon = line.indexOf(":");
      headers.push({ name: line.slice(0, colon), value: line.slice(colon + 1).trim() });
    }
  }
  const encoding = headers.find((h) => h.name.toLowerCase() === "content-transfer-encoding")?.value.toLowerCase();
  const body = encoding === "base64" ? Buffer.from(rest.replace(/\s+/g, ""), "base64").toString("utf8") : rest;
  return { headers, body };
}

/** Parses Drive's query language, the part of it this server answers: clauses joined by `and`. */
function parseDriveQuery(q: string): Array<(f: FakeFile) => boolean> | null {
  const clauses: Array<(f: FakeFile) => boolean> = [];
  let rest = q.trim();
  const literal = (s: string): { value: string; rest: string } | null => {
    if (s[0] !== "'") return null;
    let value = "";
    for (let i = 1; i < s.length; i++) {
      const ch = s[i]!;
      if (ch === "\\") {
        const next = s[i + 1];
        if (next !== "\\" && next !== "'") return null;
        value += next;
        i++;
      } else if (ch === "'") return { value, rest: s.slice(i + 1).trim() };
      else value += ch;
    }
    return null;
  };
  while (rest) {
    let m: RegExpExecArray | null;
    if ((m = /^(fullText|name) contains /.exec(rest))) {
      const lit = literal(rest.slice(m[0].length));
      if (!lit) return null;
      const field = m[1];
      const needle = lit.value.toLowerCase();
      clauses.push((f) => (field === "name" ? f.name : `${f.name} ${f.text}`).toLowerCase().includes(needle));
      rest = lit.rest;
    } else if ((m = /^trashed = (true|false)/.exec(rest))) {
      const want = m[1] === "true";
      clauses.push((f) => !!f.trashed === want);
      rest = rest.slice(m[0].length).trim();
    } else if ((m = /^'me' in owners/.exec(rest))) {
      clauses.push((f) => f.ownedByMe !== false);
      rest = rest.slice(m[0].length).trim();
    } else return null;
    if (!rest) break;
    if (!rest.startsWith("and ")) return null;
    rest = rest.slice(4).trim();
  }
  return clauses;
}

export async function startGoogleApis(opts: { authorize: (token: string) => Promise<{ account: string; scopes: string[] } | null> }) {
  const accounts = new Map<string, FakeAccount>();
  const failures: InjectedFailure[] = [];
  const requests: RecordedRequest[] = [];
  const account = (id: string): FakeAccount => {
    let a = accounts.get(id);
    if (!a) accounts.set(id, (a = { email: id, messages: [], sent: [], events: [], files: [] }));
    return a;
  };

  /** The injected failure a request to `pathname` gets, counted against its `times`. */
  function takeFailure(pathname: string): InjectedFailure | undefined {
    const injected = failures.find((f) => f.path.test(pathname));
    if (injected?.times !== undefined && --injected.times <= 0) failures.splice(failures.indexOf(injected), 1);
    return injected;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, record: RecordedRequest) {
    const url = new URL(req.url ?? "/", "http://local");
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers }).end(JSON.stringify(body));
    };
    const fail = (e: ReturnType<typeof googleError>, extra: Record<string, string> = {}) => send(e.status, e.body, { ...e.headers, ...extra });
    const service = url.pathname.startsWith("/gmail/") ? "gmail.googleapis.com" : url.pathname.startsWith("/calendar/") ? "calendar-json.googleapis.com" : "drive.googleapis.com";

    const injected = takeFailure(url.pathname);
    if (injected) {
      return fail(googleError(injected.kind, { service }), injected.retryAfter !== undefined ? { "retry-after": String(injected.retryAfter) } : {});
    }
    const who = record.token ? await opts.authorize(record.token) : null;
    if (!who) return fail(googleError("invalid_token", { service }));
    const allowed = (needs: readonly string[]) => who.scopes.some((s) => needs.includes(s));
    const me = account(who.account);
    const raw = await readBody(req);
    const json = () => {
      try {
        return JSON.parse(raw || "{}") as Record<string, any>;
      } catch {
        return null;
      }
    };

    // ─── Gmail ───
    if (url.pathname === "/gmail/v1/users/me/messages" && req.method === "GET") {
      if (!allowed(NEEDS.gmailRead)) return fail(googleError("insufficient_scope", { service }));
      const q = (url.searchParams.get("q") ?? "").toLowerCase();
      const max = Math.min(Number(url.searchParams.get("maxResults") ?? 100), 500);
      const matching = [...me.messages]
        .sort((a, b) => b.internalDate - a.internalDate)
        .filter((m) =>
          q
            .split(/\s+/)
            .filter(Boolean)
            .every((term) => {
              const header = (name: string) => m.headers.find((h) => h.name.toLowerCase() === name)?.value.toLowerCase() ?? "";
              if (term === "in:sent") return m.labelIds.includes("SENT");
              if (term.startsWith("from:")) return header("from").includes(term.slice(5));
              if (term.startsWith("to:")) return header("to").includes(term.slice(3));
              if (term.startsWith("subject:")) return header("subject").includes(term.slice(8));
              return `${header("from")} ${header("to")} ${header("subject")} ${m.snippet} ${m.body}`.toLowerCase().includes(term);
            }),
        );
      const page = paginate(matching, max, url.searchParams.get("pageToken"));
      if (!page) return fail(googleError("invalid", { location: "pageToken", message: "Invalid pageToken" }));
      return send(200, {
        ...(page.page.length ? { messages: page.page.map((m) => ({ id: m.id, threadId: m.threadId })) } : {}),
        ...(page.next ? { nextPageToken: page.next } : {}),
        resultSizeEstimate: matching.length,
      });
    }
    const get = /^\/gmail\/v1\/users\/me\/messages\/([^/]+)$/.exec(url.pathname);
    if (get && req.method === "GET") {
      if (!allowed(NEEDS.gmailRead)) return fail(googleError("insufficient_scope", { service }));
      const m = me.messages.find((x) => x.id === decodeURIComponent(get[1]!));
      if (!m) return fail(googleError("not_found"));
      const format = url.searchParams.get("format") ?? "full";
      const base = {
        id: m.id,
        threadId: m.threadId,
        labelIds: m.labelIds,
        snippet: m.snippet,
        sizeEstimate: m.body.length + 200,
        historyId: "1234",
        internalDate: String(m.internalDate),
      };
      if (format === "metadata") {
        const wanted = url.searchParams.getAll("metadataHeaders").map((h) => h.toLowerCase());
        const headers = wanted.length ? m.headers.filter((h) => wanted.includes(h.name.toLowerCase())) : m.headers;
        return send(200, { ...base, payload: { partId: "", mimeType: "text/plain", filename: "", headers } });
      }
      if (format === "full") {
        return send(200, {
          ...base,
          payload: {
            partId: "",
            mimeType: "multipart/alternative",
            filename: "",
            headers: m.headers,
            body: { size: 0 },
            parts: [
              {
                partId: "0",
                mimeType: "text/plain",
                filename: "",
                headers: [{ name: "Content-Type", value: 'text/plain; charset="UTF-8"' }],
                body: { size: m.body.length, data: Buffer.from(m.body).toString("base64url") },
              },
              {
                partId: "1",
                mimeType: "text/html",
                filename: "",
                headers: [{ name: "Content-Type", value: 'text/html; charset="UTF-8"' }],
                body: { size: m.body.length, data: Buffer.from(`<div>${m.body}</div>`).toString("base64url") },
              },
            ],
          },
        });
      }
      return fail(googleError("invalid", { location: "format", message: "Invalid value for format" }));
    }
    if (url.pathname === "/gmail/v1/users/me/messages/send" && req.method === "POST") {
      if (!allowed(NEEDS.gmailSend)) return fail(googleError("insufficient_scope", { service }));
      const body = json();
      if (!body || typeof body.raw !== "string" || !/^[A-Za-z0-9_-]+=*$/.test(body.raw))
        return fail(googleError("invalid", { location: "raw", message: "Invalid value for ByteString" }));
      const text = Buffer.from(body.raw, "base64url").toString("utf8");
      const parsed = parseMessage(text);
      const to = parsed.headers.find((h) => h.name.toLowerCase() === "to")?.value;
      if (!to) return fail(googleError("bad_request", { message: "Recipient address required" }));
      const id = randomBytes(8).toString("hex");
      const threadId = typeof body.threadId === "string" ? body.threadId : id;
      const subject = decodeWords(parsed.headers.find((h) => h.name.toLowerCase() === "subject")?.value ?? "");
      me.sent.push({ id, threadId, raw: text, headers: parsed.headers, subject, body: parsed.body });
      me.messages.push({
        id,
        threadId,
        labelIds: ["SENT"],
        headers: [{ name: "From", value: me.email }, ...parsed.headers],
        snippet: parsed.body.slice(0, 100),
        body: parsed.body,
        internalDate: Date.now(),
      });
      return send(200, { id, threadId, labelIds: ["SENT"] });
    }

    // ─── Calendar ───
    if (url.pathname === "/calendar/v3/calendars/primary/events" && req.method === "GET") {
      if (!allowed(NEEDS.calendarRead)) return fail(googleError("insufficient_scope", { service }));
      const singleEvents = url.searchParams.get("singleEvents") === "true";
      if (url.searchParams.get("orderBy") === "startTime" && !singleEvents)
        return fail(googleError("bad_request", { message: "The requested ordering is not available for the particular query." }));
      const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
      for (const p of ["timeMin", "timeMax"]) if (url.searchParams.has(p) && !rfc3339.test(url.searchParams.get(p)!)) return fail(googleError("bad_request"));
      const min = url.searchParams.has("timeMin") ? Date.parse(url.searchParams.get("timeMin")!) : -Infinity;
      const max = url.searchParams.has("timeMax") ? Date.parse(url.searchParams.get("timeMax")!) : Infinity;
      const at = (t: FakeEvent["start"]) => Date.parse(t.dateTime ?? `${t.date}T00:00:00Z`);
      // A series (recurrence without UNTIL or COUNT, here) has occurrences after any timeMin.
      const items = me.events
        .filter((e) => (singleEvents ? !e.recurrence : !e.recurringEventId))
        .filter((e) => (e.recurrence ? true : at(e.end) > min) && at(e.start) < max)
        .sort((a, b) => at(a.start) - at(b.start));
      const page = paginate(items, Math.min(Number(url.searchParams.get("maxResults") ?? 250), 2500), url.searchParams.get("pageToken"));
      if (!page) return fail(googleError("invalid", { location: "pageToken", message: "Invalid pageToken" }));
      const view = ({ sendUpdates: _s, ...e }: FakeEvent) => ({ kind: "calendar#event", status: "confirmed", htmlLink: `https://www.google.com/calendar/event?eid=${e.id}`, ...e });
      return send(200, { kind: "calendar#events", summary: me.email, timeZone: "Europe/Lisbon", items: page.page.map(view), ...(page.next ? { nextPageToken: page.next } : {}) });
    }
    if (url.pathname === "/calendar/v3/calendars/primary/events" && req.method === "POST") {
      if (!allowed(NEEDS.calendarWrite)) return fail(googleError("insufficient_scope", { service }));
      const body = json();
      if (!body?.start || !body.end) return fail(googleError("bad_request", { message: "Missing end time." }));
      if (Date.parse(body.end.dateTime) <= Date.parse(body.start.dateTime)) return fail(googleError("bad_request", { message: "The specified time range is empty." }));
      const event: FakeEvent = {
        id: randomBytes(10).toString("hex"),
        summary: body.summary,
        start: body.start,
        end: body.end,
        description: body.description,
        location: body.location,
        attendees: (body.attendees ?? []).map((a: { email: string }) => ({ email: a.email, responseStatus: "needsAction" })),
        organizer: { email: me.email, self: true },
        sendUpdates: url.searchParams.get("sendUpdates"),
      };
      me.events.push(event);
      const { sendUpdates: _s, ...view } = event;
      return send(200, {
        kind: "calendar#event",
        status: "confirmed",
        htmlLink: `https://www.google.com/calendar/event?eid=${event.id}`,
        created: new Date().toISOString(),
        creator: { email: me.email, self: true },
        ...view,
      });
    }

    // ─── Drive ───
    if (url.pathname === "/drive/v3/files" && req.method === "GET") {
      if (!allowed(NEEDS.driveRead)) return fail(googleError("insufficient_scope", { service }));
      const q = url.searchParams.get("q") ?? "";
      const clauses = parseDriveQuery(q);
      if (!clauses) return fail(googleError("invalid", { location: "q", message: "Invalid Value" }));
      if (/fullText contains/.test(q) && url.searchParams.has("orderBy")) {
        return fail(
          googleError("invalid", { location: "orderBy", message: "Sorting is not supported for queries with fullText terms. Results are always in descending relevance order." }),
        );
      }
      let files = me.files.filter((f) => clauses.every((c) => c(f)));
      if (url.searchParams.get("orderBy") === "modifiedTime desc") files = [...files].sort((a, b) => Date.parse(b.modifiedTime) - Date.parse(a.modifiedTime));
      const page = paginate(files, Math.min(Number(url.searchParams.get("pageSize") ?? 100), 1000), url.searchParams.get("pageToken"));
      if (!page) return fail(googleError("invalid", { location: "pageToken", message: "Invalid Value" }));
      const fields = url.searchParams.get("fields");
      // Without `fields`, Drive v3 answers only kind, id, name and mimeType.
      const view = (f: FakeFile) =>
        fields
          ? {
              id: f.id,
              name: f.name,
              mimeType: f.mimeType,
              modifiedTime: f.modifiedTime,
              webViewLink: `https://docs.google.com/document/d/${f.id}/edit`,
              owners: [{ displayName: "Ada Lovelace", emailAddress: me.email }],
            }
          : { kind: "drive#file", id: f.id, name: f.name, mimeType: f.mimeType };
      return send(200, { ...(fields ? {} : { kind: "drive#fileList", incompleteSearch: false }), files: page.page.map(view), ...(page.next ? { nextPageToken: page.next } : {}) });
    }
    return fail(googleError("not_found"));
  }

  /** Gmail's batch endpoint: each call served by `handle` as a request of its own, answered in one multipart body. */
  async function batch(req: IncomingMessage, res: ServerResponse, record: RecordedRequest) {
    const injected = takeFailure(record.path);
    if (injected) {
      const e = googleError(injected.kind);
      record.status = e.status;
      return res.writeHead(e.status, { "content-type": "application/json; charset=UTF-8", ...e.headers }).end(JSON.stringify(e.body));
    }
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/.exec(req.headers["content-type"] ?? "");
    const raw = await readBody(req);
    const calls = boundary
      ? raw
          .split(`--${boundary[1] ?? boundary[2]}`)
          .slice(1)
          .filter((c) => !c.startsWith("--"))
          .map((c) => {
            const [head = "", inner = ""] = c.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
            return { id: /^content-id:\s*<([^>]*)>/im.exec(head)?.[1] ?? null, line: inner.split(/\r?\n/)[0]!.trim() };
          })
      : [];
    if (!calls.length || calls.length > 100 || calls.some((c) => !/^GET \/\S+( HTTP\/1\.1)?$/.test(c.line))) {
      const e = googleError("bad_request", { message: "Failed to parse batch request" });
      record.status = e.status;
      return res.writeHead(e.status, { "content-type": "application/json; charset=UTF-8" }).end(JSON.stringify(e.body));
    }
    const answers = await Promise.all(
      calls.map(async (call) => {
        const target = call.line.split(" ")[1]!;
        const inner = Object.assign(Readable.from([]), { method: "GET", url: target, headers: { authorization: req.headers.authorization } }) as unknown as IncomingMessage;
        const url = new URL(target, "http://local");
        const innerRecord: RecordedRequest = { method: "GET", path: url.pathname, query: url.searchParams, token: record.token, status: 0, batch: record.path };
        requests.push(innerRecord);
        let status = 0;
        let headers: Record<string, string> = {};
        let body = "";
        const out = {
          writeHead(s: number, h: Record<string, string> = {}) {
            status = s;
            headers = h;
            return out;
          },
          end(b?: string) {
            body = b ?? "";
          },
        } as unknown as ServerResponse;
        await handle(inner, out, innerRecord);
        const lines = Object.entries(headers).map(([k, v]) => `${k.replace(/(^|-)[a-z]/g, (x) => x.toUpperCase())}: ${v}`);
        return {
          id: call.id,
          text: `HTTP/1.1 ${status} ${status === 200 ? "OK" : "Error"}\r\n${lines.join("\r\n")}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}\r\n`,
        };
      }),
    );
    const out = `batch_${randomBytes(9).toString("base64url")}`;
    const parts = answers.reverse().map((a) => `--${out}\r\nContent-Type: application/http\r\n${a.id !== null ? `Content-ID: <response-${a.id}>\r\n` : ""}\r\n${a.text}`);
    record.status = 200;
    res.writeHead(200, { "content-type": `multipart/mixed; boundary=${out}` }).end(`${parts.join("")}--${out}--\r\n`);
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const record: RecordedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      token: (req.headers.authorization ?? "").replace(/^Bearer /, ""),
      status: 0,
    };
    requests.push(record);
    const serve = url.pathname === "/batch/gmail/v1" && req.method === "POST" ? batch : handle;
    serve(req, res, record).catch((e) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { GMAIL_API_URL: url, GOOGLE_CALENDAR_API_URL: url, GOOGLE_DRIVE_API_URL: url },
    account,
    requests,
    /** The next `times` (default: every) requests whose path matches fail so. */
    inject(failure: InjectedFailure) {
      failures.push(failure);
    },
    clearFailures() {
      failures.splice(0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
