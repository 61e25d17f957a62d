// The import screen's previews, which anyone with a flow's link may ask for: a budget per flow, one
// per network, and a bound on large export files read at once in the process (refused at once with
// "try again", never queued).
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { findFlow, type Flow } from "@/lib/flow/store";
import { LARGE_PREVIEW_BYTES, LARGE_PREVIEWS_BUSY, PREVIEWS_PER_FLOW_REFUSED, PREVIEWS_PER_IP_REFUSED, withPreviewSlot } from "@/lib/flow/preview-limits";
import { previewImport, StepError } from "@/lib/flow/steps";
import { createTenant } from "../helpers/fixtures";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";

const PER_FLOW = 3;
const PER_IP = 5;
const AT_ONCE = 2;

let clientId: string;
beforeAll(async () => {
  process.env.PREVIEWS_PER_FLOW = String(PER_FLOW);
  process.env.PREVIEWS_PER_IP_PER_HOUR = String(PER_IP);
  process.env.LARGE_PREVIEWS_AT_ONCE = String(AT_ONCE);
  resetEnvForTests();
  clientId = (await registerClient(await createTenant())).client_id;
});

const newFlow = async (): Promise<Flow> => (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, pkce().challenge)))))!;
const reload = async (flow: Flow) => (await findFlow(flow.id))!;
/** An address no other test uses, so each test's network budget starts full. */
const freshIp = () => `10.${[...randomBytes(3)].join(".")}`;
const paste = (flow: Flow, ip?: string) => previewImport(flow, { provider: "chatgpt", text: "- I live in Porto", ip });

/** A ChatGPT export larger than LARGE_PREVIEW_BYTES: the fixture's conversations, many times over, each with a long field no reader uses. */
function largeExport(): Blob {
  const conversations = JSON.parse(readFileSync("tests/fixtures/exports/chatgpt-conversations.json", "utf8")) as object[];
  const copies = Array.from({ length: 50 }, () => conversations.map((c) => ({ ...c, padding: "x".repeat(Math.ceil(LARGE_PREVIEW_BYTES / 100)) }))).flat();
  const bytes = new TextEncoder().encode(JSON.stringify(copies));
  expect(bytes.byteLength).toBeGreaterThan(LARGE_PREVIEW_BYTES);
  return new Blob([bytes]);
}

describe("import previews", () => {
  it("are limited per flow, with a message saying when to try again; another flow still previews", async () => {
    const ip = freshIp();
    const flow = await newFlow();
    for (let i = 0; i < PER_FLOW; i++) await paste(await reload(flow));
    const refused = await paste(await reload(flow)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(StepError);
    expect(refused).toMatchObject({ field: "text", message: `${PREVIEWS_PER_FLOW_REFUSED} Try again in 15 minutes.` });
    // The refused preview changed nothing: the last one stands.
    expect((await reload(flow)).broughtIn.map((b) => b.provider)).toEqual(["chatgpt"]);
    await expect(paste(await newFlow(), ip)).resolves.toMatchObject({ via: "paste" });
  });

  it("are limited per network across flows (an IPv6 address by its /64); another network still previews", async () => {
    const net = `2001:db8:${randomBytes(2).toString("hex")}:1`;
    for (let i = 0; i < PER_IP; i++) await paste(await newFlow(), `${net}::${i + 1}`);
    const refused = await paste(await newFlow(), `${net}::ffff`).catch((err: unknown) => err);
    expect(refused).toMatchObject({ field: "text", message: `${PREVIEWS_PER_IP_REFUSED} Try again in an hour.` });
    await expect(paste(await newFlow(), freshIp())).resolves.toMatchObject({ via: "paste" });
  });

  it(`read at most ${AT_ONCE} large files at once in the process, telling the others to try again in a minute`, async () => {
    const file = largeExport();
    // Hold every slot with reads that end only when released, so the bound is tested whatever the timing.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = () => withPreviewSlot(LARGE_PREVIEW_BYTES + 1, () => held);
    const holders = Array.from({ length: AT_ONCE - 1 }, hold);
    // One slot still free: a large file is read.
    await expect(previewImport(await newFlow(), { provider: "chatgpt", file, ip: freshIp() })).resolves.toMatchObject({ via: "file" });
    holders.push(hold());
    const refused = await Promise.all(
      Array.from({ length: 3 }, async () => previewImport(await newFlow(), { provider: "chatgpt", file, ip: freshIp() }).catch((err: unknown) => err)),
    );
    for (const err of refused) expect(err).toMatchObject({ field: "file", message: LARGE_PREVIEWS_BUSY });
    // A small paste needs no slot.
    await expect(paste(await newFlow(), freshIp())).resolves.toMatchObject({ via: "paste" });
    release();
    await Promise.all(holders);
    // Slots come back once a read ends, whether it succeeded or not.
    await expect(withPreviewSlot(LARGE_PREVIEW_BYTES + 1, () => Promise.reject(new Error("unreadable")))).rejects.toThrow("unreadable");
    await expect(previewImport(await newFlow(), { provider: "chatgpt", file, ip: freshIp() })).resolves.toMatchObject({ via: "file" });
  });
});
