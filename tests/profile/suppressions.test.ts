// Suppressions made visible and undoable: one developer's agent forgetting at the person's request
// hides another developer's memory and the person's import; the memories page lists it, naming the
// agent and its developer, and restores exactly it; the access log records both; nobody else can
// restore it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeEach, describe, expect, it } from "vitest";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpPost } from "@/app/mcp/route";
import { POST as forget } from "@/app/v1/profile/forget/route";
import { POST as remember } from "@/app/v1/profile/remember/route";
import { GET as search } from "@/app/v1/profile/search/route";
import { accessLogOf } from "@/lib/access-log/access-log";
import { AccountError } from "@/lib/account/errors";
import { exportAccount } from "@/lib/account/export";
import { forgetMemory } from "@/lib/account/memories";
import { accountSuppressions, restoreHidden } from "@/lib/account/suppressions";
import { db } from "@/lib/platform/db";
import { factToMemory } from "@/lib/profile/facts";
import { inTransaction, writeMemories } from "@/lib/profile/memories";
import { ACCOUNT_SURFACE, RESTORE_ACTION, SUPPRESS_ACTION } from "@/lib/profile/suppressions";
import { approveAgent } from "@/lib/users/approvals";
import { linkExternalId } from "@/lib/users/users";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let a: Tenant;
let b: Tenant;
let person: string;
/** Developer B's agent, acting for the same person as developer A's. */
let bHeaders: Record<string, string>;

beforeEach(async () => {
  a = await createTenant();
  b = await createTenant(undefined, "other-agent");
  person = a.users.live.id;
  await linkExternalId({ developerId: b.developer.id, plane: "live", externalId: "shared-person", userId: person });
  await approveAgent({ userId: person, agentId: b.agent.id });
  bHeaders = { ...liveHeaders(b), "x-user-id": "shared-person" };
});

async function importFromChatGpt(texts: string[]) {
  const source = "imports/chatgpt";
  await inTransaction((tx) =>
    writeMemories(
      tx,
      { userId: person, source, writtenBy: source, agentId: null },
      texts.map((text) => ({ ...factToMemory(text), provenance: { via: "import_file" } })),
    ),
  );
}

async function found(headers: Record<string, string>, query: string): Promise<string[]> {
  const res = await call(search, { headers, query: { query } });
  expect(res.status).toBe(200);
  return res.body.results.map((r: { text: string }) => r.text).sort();
}

/** B's agent remembers a fact about chess, the person imported another; A's agent forgets "chess" at the person's request. */
async function forgetChessAsA() {
  const bWrote = await call(remember, { headers: bHeaders, body: { text: "I play chess on Sundays", kind: "other" } });
  expect(bWrote.body.saved).toBe(true);
  await importFromChatGpt(["I love chess"]);
  expect(await found(bHeaders, "chess")).toHaveLength(2);
  const res = await call(forget, { headers: liveHeaders(a), body: { match: "chess", confirm: true, reason: "user_request" } });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ deleted: true, deleted_count: 0, suppressed_count: 2 });
}

/** The MCP SDK's client on /mcp, as developer A's agent for the person. */
async function mcpAsA() {
  const client = new Client({ name: "suppressions-test", version: "1.0.0" });
  const fetch = async (url: string | URL, init?: RequestInit) => {
    const req = new Request(url, init);
    return req.method === "POST" ? mcpPost(req) : req.method === "DELETE" ? mcpDelete() : mcpGet();
  };
  const headers = { "x-api-key": a.keys.sk, "x-agent": a.agent.handle, "x-user-id": "user-live" };
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost:3000/mcp"), { requestInit: { headers }, fetch }));
  return client;
}

describe("a suppression an agent asked for", () => {
  it("hides another developer's memory and the person's import, and the memories page names the agent and its developer", async () => {
    await forgetChessAsA();
    expect(await found(bHeaders, "chess")).toEqual([]);
    expect(await found(liveHeaders(a), "chess")).toEqual([]);

    const hidden = await accountSuppressions(person);
    expect(hidden).toHaveLength(1);
    expect(hidden[0]).toMatchObject({ requestedBy: "agent", agent: { name: a.agent.displayName, developer: a.developer.name }, count: 2 });
    expect(hidden[0]!.memories.map((m) => [m.text, m.source]).sort()).toEqual([
      ["Likes chess", "imports/chatgpt"],
      ["Plays chess on Sundays", "agents/other-agent"],
    ]);
    // Nobody else's page lists it; the person's export holds it too.
    expect(await accountSuppressions(b.users.live.id)).toEqual([]);
    const exported = await exportAccount(person);
    expect(exported!.suppressions).toEqual([
      expect.objectContaining({
        id: hidden[0]!.id,
        requested_by: "agent",
        agent: a.agent.displayName,
        developer: a.developer.name,
        memory_ids: hidden[0]!.memories.map((m) => m.id).sort(),
      }),
    ]);
  });

  it("is restored in one step, bringing back exactly what it hid, and the access log records both", async () => {
    await forgetChessAsA();
    const [suppression] = await accountSuppressions(person);
    expect(await restoreHidden({ userId: person, suppressionId: suppression!.id })).toBe(2);
    expect(await found(bHeaders, "chess")).toEqual(["Likes chess", "Plays chess on Sundays"]);
    expect(await accountSuppressions(person)).toEqual([]);
    // Restored once is gone: a second tap finds nothing.
    await expect(restoreHidden({ userId: person, suppressionId: suppression!.id })).rejects.toBeInstanceOf(AccountError);

    const log = await accessLogOf(person);
    const hid = log.find((e) => e.action === SUPPRESS_ACTION);
    const restored = log.find((e) => e.action === RESTORE_ACTION);
    expect(hid).toMatchObject({ agent: a.agent.displayName, developer: a.developer.name, surface: "rest", outcome: "ok" });
    expect(restored).toMatchObject({ agent: a.agent.displayName, developer: a.developer.name, surface: ACCOUNT_SURFACE, outcome: "ok" });
    expect(log.indexOf(restored!)).toBeLessThan(log.indexOf(hid!));
  });

  it("is restored once when two taps arrive together", async () => {
    await forgetChessAsA();
    const [suppression] = await accountSuppressions(person);
    const taps = await Promise.allSettled([1, 2].map(() => restoreHidden({ userId: person, suppressionId: suppression!.id })));
    expect(taps.filter((t) => t.status === "fulfilled").map((t) => t.value)).toEqual([2]);
    expect(taps.filter((t) => t.status === "rejected").map((t) => t.reason)).toEqual([expect.objectContaining({ code: "not_found" })]);
    expect((await accessLogOf(person)).filter((e) => e.action === RESTORE_ACTION)).toHaveLength(1);
  });

  it("cannot be restored by another person, nor by an id that is not a suppression", async () => {
    await forgetChessAsA();
    const [suppression] = await accountSuppressions(person);
    for (const suppressionId of [suppression!.id, "sup_x", "mem_" + "a".repeat(24), 42, null]) {
      const other = suppressionId === suppression!.id ? b.users.live.id : person;
      await expect(restoreHidden({ userId: other, suppressionId })).rejects.toMatchObject({ code: "not_found" });
    }
    expect(await found(bHeaders, "chess")).toEqual([]);
    expect(await accountSuppressions(person)).toHaveLength(1);
  });

  it("leaves hidden what another suppression also hides, until that one is restored too", async () => {
    await forgetChessAsA();
    // Developer B's agent learns "I love chess" again; the person hides it on the account page, which
    // also holds the hidden import saying the same.
    const again = await call(remember, { headers: bHeaders, body: { text: "I love chess" } });
    expect(again.body.saved).toBe(true);
    await forgetMemory({ userId: person, memoryId: again.body.memory.id });
    const [own, agents] = await accountSuppressions(person);
    expect(own).toMatchObject({ requestedBy: "person", agent: null, count: 2 });
    expect(agents).toMatchObject({ requestedBy: "agent", count: 2 });

    expect(await restoreHidden({ userId: person, suppressionId: agents!.id })).toBe(1);
    expect(await found(bHeaders, "chess")).toEqual(["Plays chess on Sundays"]);
    expect(await restoreHidden({ userId: person, suppressionId: own!.id })).toBe(2);
    expect(await found(bHeaders, "chess")).toEqual(["Likes chess", "Likes chess", "Plays chess on Sundays"]);
    // Nothing is left marked hidden without a suppression holding it.
    const stray = await (await db()).memory.count({ where: { userId: person, suppressedAt: { not: null }, suppressions: { none: {} } } });
    expect(stray).toBe(0);
  });

  it("is recorded the same way when the agent asks through MCP", async () => {
    await importFromChatGpt(["I love chess"]);
    const client = await mcpAsA();
    const result = (await client.callTool({ name: "service_profile_forget", arguments: { match: "chess", confirm: true, reason: "user_request" } })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    await client.close();
    const [suppression] = await accountSuppressions(person);
    expect(suppression).toMatchObject({ requestedBy: "agent", agent: { name: a.agent.displayName, developer: a.developer.name }, count: 1 });
    expect((await accessLogOf(person)).find((e) => e.action === SUPPRESS_ACTION)).toMatchObject({ surface: "mcp", agent: a.agent.displayName });
  });
});
