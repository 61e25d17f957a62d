// The ways in as a registry: every way in the database knows is one module listed once; its request is
// parsed on every write and every read (joined with its reference column); a stored request that is not
// its way in's is refused rather than guessed at; and no domain a way in uses imports the flow back.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import type { FlowSession as FlowRow } from "@/lib/platform/db/generated/client";
import { FlowWayIn } from "@/lib/platform/db/generated/enums";
import { flowFromRow, requestColumns } from "@/lib/flow/row";
import { WAY_IN_NAMES, type WayInName } from "@/lib/flow/screens";
import { startFlow } from "@/lib/flow/start";
import { findFlow } from "@/lib/flow/store";
import { WAYS_IN, type WayInRequests } from "@/lib/flow/ways-in";
import { openProfileSignup } from "@/lib/flow/ways-in/profile-signup";

const CALLBACK = "http://localhost:4000/callback";
const AUTHORIZE = { redirect_uri: CALLBACK, state: "st", nonce: null, scopes: ["openid", "email"], code_challenge: "x".repeat(43) };

/** One request of each way in, with every optional part it can carry. */
const REQUESTS: { [K in WayInName]: WayInRequests[K] } = {
  oidc: { client_id: "oc_registry", ...AUTHORIZE },
  mcp_client: {
    ...AUTHORIZE,
    client_document: {
      url: "https://assistant.example/client.json",
      metadata: { client_name: "Assistant" },
      display_name: "Assistant (assistant.example)",
      fetched_at: "2026-01-01T00:00:00.000Z",
    },
  },
  profile_signup: {},
  connect: {
    connect_link_id: "mcc_registry",
    app: "gmail",
    capability: "gmail:send",
    purpose: "to send your replies",
    client_name: "Trail Guide",
    return_url: "https://app.example/done",
    signed_in: false,
    binds_external_id: true,
    for_user_id: null,
    capability_allowed: true,
  },
  sign_in_link: {
    return_to: null,
    state: null,
    display_name: "Trail Guide",
    connectors: ["gmail"],
    reconnect: true,
    message: { line_id: "line", channel: "sms", complete_url: "https://app.example/hook", journey: "j", body: "hi", link_hash: "a".repeat(64) },
  },
  partner: { partner_session_id: "pfs_registry", flow: "linked_account", sources: ["chatgpt", "claude"], phone_first: true, binds_external_id: true },
};

/** A stored row for the request's columns, the rest as a new flow has it. */
function rowWith(wayIn: WayInName, columns: ReturnType<typeof requestColumns>["columns"]): FlowRow {
  return {
    id: "f".repeat(32),
    wayIn,
    developerId: null,
    agentId: null,
    plane: "live",
    required: [],
    browserHash: "h",
    status: "active",
    screen: "import",
    signInFirst: false,
    broughtIn: [],
    phoneHash: null,
    phoneLast4: null,
    pendingEmail: null,
    receipt: null,
    userId: null,
    createdAt: new Date(),
    expiresAt: new Date(),
    endedAt: null,
    ...columns,
    request: columns.request as FlowRow["request"],
  };
}

/** A way in's request written as its columns store it and read back from a row holding them. */
function roundTrip<K extends WayInName>(name: K): void {
  const way = WAYS_IN[name];
  const { parsed, columns } = requestColumns(way, REQUESTS[name]);
  expect(parsed).toEqual(REQUESTS[name]);
  for (const [key, column] of [
    ["client_id", "clientId"],
    ["connect_link_id", "connectLinkId"],
    ["partner_session_id", "partnerSessionId"],
  ] as const) {
    expect(columns.request).not.toHaveProperty(key);
    expect(columns[column]).toBe((REQUESTS[name] as Record<string, unknown>)[key] ?? null);
  }
  expect(flowFromRow(way, rowWith(name, columns)).request).toEqual(REQUESTS[name]);
}

describe("the ways in", () => {
  it("are every way in the database knows, each listed once under its own name", () => {
    expect(Object.keys(WAYS_IN).sort()).toEqual([...WAY_IN_NAMES].sort());
    expect([...WAY_IN_NAMES].sort()).toEqual(Object.values(FlowWayIn).sort());
    for (const name of WAY_IN_NAMES) expect(WAYS_IN[name].name).toBe(name);
  });

  it.each(WAY_IN_NAMES)("%s: its request round-trips through its columns, its reference in its own column", (name) => roundTrip(name));

  it("refuse a request their way in does not declare, before anything is written", async () => {
    expect(() => requestColumns(WAYS_IN.connect, { ...REQUESTS.connect, surprise: true } as WayInRequests["connect"])).toThrow();
    // Another way in's request.
    expect(() => requestColumns(WAYS_IN.partner, REQUESTS.connect as unknown as WayInRequests["partner"])).toThrow();
    const prisma = await db();
    const before = await prisma.flowSession.count();
    const { client_id: _, ...withoutClient } = REQUESTS.oidc;
    await expect(startFlow(WAYS_IN.oidc, { plane: "live", required: [], request: withoutClient as WayInRequests["oidc"], ip: "10.12.0.1" })).rejects.toThrow();
    expect(await prisma.flowSession.count()).toBe(before);
  });

  it("refuse a stored request that is not their way in's when the flow is read", async () => {
    const { id } = await openProfileSignup("10.12.0.2");
    expect(await findFlow(id)).toMatchObject({ wayIn: "profile_signup", request: {} });
    const prisma = await db();
    await prisma.flowSession.update({ where: { id }, data: { request: { app: "gmail" } } });
    await expect(findFlow(id)).rejects.toThrow();
    // A row that says it came by a connect link but carries no link.
    await prisma.flowSession.update({ where: { id }, data: { wayIn: "connect", request: { ...REQUESTS.connect, connect_link_id: undefined } } });
    await expect(findFlow(id)).rejects.toThrow();
  });
});

/** The lib/ folder a file is in ("" for a file at lib/'s top). */
function folderOf(file: string): string {
  const parts = path.relative("lib", file).split(path.sep);
  return parts.length > 1 ? parts[0]! : "";
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "generated" ? [] : sources(p);
    return /\.tsx?$/.test(name) ? [p] : [];
  });
}

/** The lib/ folders a file imports (type-only imports too). */
function importedFolders(file: string): Set<string> {
  const out = new Set<string>();
  for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)) {
    const target = spec!.startsWith("@/lib/") ? path.join("lib", spec!.slice("@/lib/".length)) : spec!.startsWith(".") ? path.join(path.dirname(file), spec!) : null;
    if (target?.startsWith("lib" + path.sep)) out.add(folderOf(target + ".ts"));
  }
  return out;
}

describe("the flow's folder", () => {
  it("is imported by none of the folders it imports: a way in imports its domain, never the other way", () => {
    const all = sources("lib");
    const flowImports = new Set(all.filter((f) => folderOf(f) === "flow").flatMap((f) => [...importedFolders(f)]));
    flowImports.delete("flow");
    flowImports.delete("");
    const back = all.filter((f) => flowImports.has(folderOf(f)) && importedFolders(f).has("flow"));
    expect(back).toEqual([]);
  });
});
