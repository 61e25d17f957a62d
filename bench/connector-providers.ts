// The local providers of the connector-tool benchmark (bench/connectors.ts), in a process of their own:
// the test suite's servers speaking the Gmail, Calendar and Drive REST APIs (tests/helpers/google-apis.ts)
// and Notion's (tests/helpers/notion-server.ts), answering at once from a small seeded account. Every
// request they serve is timed at the server, from its headers parsed (http.server.request.start) to
// the answer's last byte handed to the socket (http.server.response.finish), on the machine's
// monotonic clock (process.hrtime), and kept with its Bearer token for the benchmark to collect.
// Started by bench/connectors.ts with `node --import tsx` and an IPC channel; it is not run by hand.
// IPC: sends { type: "ready", env } once listening; answers { type: "take" } with
// { type: "taken", records: [token, startNs, endNs][] } (the requests served since the last take).
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { startGoogleApis, type FakeAccount } from "../tests/helpers/google-apis";
import { startNotionServer } from "../tests/helpers/notion-server";

/** Access tokens the Google server accepts start so; the benchmark seeds one per person. */
export const GOOGLE_TOKEN_PREFIX = "bench-google-";
export const GOOGLE_ACCOUNT = "bench-account";
const SCOPE = "https://www.googleapis.com/auth/";
const GOOGLE_SCOPES = [`${SCOPE}gmail.readonly`, `${SCOPE}calendar.readonly`, `${SCOPE}drive.readonly`];
const DAY = 86_400_000;

type Timed = [token: string, startNs: number, endNs: number];

const records: Timed[] = [];
const started = new WeakMap<IncomingMessage, number>();
const now = () => Number(process.hrtime.bigint());

subscribe("http.server.request.start", (message) => {
  started.set((message as { request: IncomingMessage }).request, now());
});
subscribe("http.server.response.finish", (message) => {
  const { request } = message as { request: IncomingMessage };
  const at = started.get(request);
  if (at === undefined) return;
  records.push([(request.headers.authorization ?? "").replace(/^Bearer /, ""), at, now()]);
});

function seedGoogle(a: FakeAccount): void {
  const at = Date.now();
  a.email = "bench@example.com";
  for (let i = 0; i < 25; i++) {
    a.messages.push({
      id: `msg${String(i).padStart(3, "0")}`,
      threadId: `thr${i}`,
      labelIds: ["INBOX"],
      headers: [
        { name: "From", value: i % 5 === 0 ? "Ana Costa <ana@example.org>" : `Newsletter ${i} <news${i}@example.com>` },
        { name: "To", value: '"Bench, Ada" <bench@example.com>, bob@example.com' },
        { name: "Subject", value: `Message ${i} about the roadmap` },
        { name: "Date", value: new Date(at - i * 3_600_000).toUTCString() },
        { name: "Message-ID", value: `<m${i}@mail.example.org>` },
      ],
      snippet: `Snippet of message ${i} &amp; a note`,
      body: `The whole body of message ${i}, which a search never returns.`,
      internalDate: at - i * 3_600_000,
    });
  }
  for (let i = 0; i < 25; i++) {
    a.files.push({
      id: `file${i}`,
      name: `Roadmap part ${i}`,
      mimeType: "application/vnd.google-apps.document",
      modifiedTime: new Date(at - i * DAY).toISOString(),
      text: "roadmap engine",
    });
  }
}

async function main(): Promise<void> {
  const google = await startGoogleApis({
    authorize: async (token) => (token.startsWith(GOOGLE_TOKEN_PREFIX) ? { account: GOOGLE_ACCOUNT, scopes: GOOGLE_SCOPES } : null),
  });
  seedGoogle(google.account(GOOGLE_ACCOUNT));
  const notion = await startNotionServer({ email: "bench@example.com" });
  for (let i = 0; i < 25; i++) {
    notion.items.push({
      id: `0b6c1d3e-0000-4000-8000-${String(i).padStart(12, "0")}`,
      object: i % 5 === 0 ? "database" : "page",
      title: `Roadmap page ${i}`,
      last_edited_time: new Date(Date.now() - i * DAY).toISOString(),
    });
  }
  process.on("message", (message: { type?: string }) => {
    if (message.type !== "take") return;
    // The helpers keep every request they served; the benchmark does not read those lists.
    google.requests.splice(0);
    notion.requests.splice(0);
    process.send!({ type: "taken", records: records.splice(0) });
  });
  process.on("disconnect", () => process.exit(0));
  process.send!({
    type: "ready",
    env: { ...google.env, NOTION_API_URL: notion.env.NOTION_API_URL, NOTION_TOKEN_URL: notion.env.NOTION_TOKEN_URL, NOTION_AUTHORIZATION_URL: notion.env.NOTION_AUTHORIZATION_URL },
  });
}

main().catch((err: Error) => {
  console.error(`connector providers: ${err.stack ?? err.message}`);
  process.exit(1);
});
