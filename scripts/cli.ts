// The service's command-line tool: developers, keys, agents, approved origins and signing keys.
// Usage: npm run service -- <command> [--flags]   (npm run service -- help)
import { parseArgs } from "node:util";
import { agentView, createAgent, listAgents, setAgentActive } from "../lib/agents/agents";
import { closeDatabase } from "../lib/platform/db";
import { addOrigin, createDeveloper, findDeveloper, IMPORT_TIERS, listDevelopers, setImportTier, setPartnerPhoneFirst } from "../lib/developers/developers";
import { ApiError } from "../lib/http/errors";
import { isKeyActive, issueApiKey, KEY_ROTATION_OVERLAP_HOURS, listApiKeys, revokeApiKey, rotateApiKey } from "../lib/api-keys/api-keys";
import { createSigningKey, ensureSigningKey, listSigningKeys, SIGNING_KEY_ACTIVATION_DELAY_SECONDS } from "../lib/oidc/signing-keys";

const HELP = `Usage: npm run service -- <command> [options]

Commands:
  create-developer --name <name> [--tier free|pro|scale|enterprise]
  list-developers
  set-tier      --developer <id|name> --tier free|pro|scale|enterprise   the bulk import tier
  issue-key     --developer <id|name> [--kind secret|publishable] [--plane live|test] [--name <label>]
  list-keys     --developer <id|name>
  revoke-key    --developer <id|name> --key <key id or visible prefix>
  rotate-key    --developer <id|name> --key <key id>   a new key; the old one works ${KEY_ROTATION_OVERLAP_HOURS} more hours (its MCP sessions end now)
  create-agent  --developer <id|name> --handle <handle> [--name <display name>]
  list-agents   --developer <id|name>
  deactivate-agent | activate-agent --developer <id|name> --handle <handle>
  add-origin    --developer <id|name> --origin <https origin or http://localhost:port>
  set-partner-phone-first --developer <id|name> --on|--off   partner links with flow
                                             linked_account ask for phone and code before the
                                             import screen (off by default)
  rotate-signing-key [--delay-seconds <s>]   publish a new OpenID Connect signing key now; it
                                             signs after the delay (default 900)
  list-signing-keys

A new key is printed once; only its hash is stored.`;

type Flags = Record<string, string | undefined>;

function need(flags: Flags, name: string): string {
  const v = flags[name];
  if (!v) throw new Error(`--${name} is required`);
  return v;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, flag: string): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`--${flag} must be one of ${allowed.join(", ")}`);
  return value as T;
}

async function developerOf(flags: Flags) {
  const ref = need(flags, "developer");
  const dev = await findDeveloper(ref);
  if (!dev) throw new Error(`No developer '${ref}'.`);
  return dev;
}

const commands: Record<string, (flags: Flags) => Promise<void>> = {
  async "create-developer"(f) {
    const dev = await createDeveloper({ name: need(f, "name"), importTier: oneOf(f.tier, IMPORT_TIERS, "free", "tier") });
    console.log(`Developer created\n  id:   ${dev.id}\n  name: ${dev.name}\n  tier: ${dev.importTier}`);
  },
  async "set-tier"(f) {
    const dev = await developerOf(f);
    const tier = oneOf(need(f, "tier"), IMPORT_TIERS, "free", "tier");
    const updated = await setImportTier({ developerId: dev.id, tier });
    console.log(`Import tier of ${updated.name}: ${updated.importTier}.`);
  },
  async "list-developers"() {
    for (const d of await listDevelopers()) console.log(`${d.id}  ${d.name}  tier=${d.importTier}${d.sandbox ? "  (sandbox)" : ""}`);
  },
  async "issue-key"(f) {
    const dev = await developerOf(f);
    const kind = oneOf(f.kind, ["secret", "publishable"] as const, "secret", "kind");
    const plane = oneOf(f.plane, ["live", "test"] as const, "live", "plane");
    const { key, record } = await issueApiKey({ developerId: dev.id, kind, plane, name: f.name, createdBy: { via: "command_line" } });
    console.log(`New ${plane} ${kind} key (id ${record.id}). It is shown once; store it now:\n\n  ${key}\n`);
  },
  async "list-keys"(f) {
    const dev = await developerOf(f);
    for (const k of await listApiKeys(dev.id)) {
      const state = !k.revokedAt ? "active" : isKeyActive(k.revokedAt) ? `rotated, works until ${k.revokedAt.toISOString()}` : `revoked ${k.revokedAt.toISOString()}`;
      const used = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : "never used";
      const maker =
        k.createdVia === "dashboard"
          ? `made by ${k.createdBy?.email ?? "a dashboard user"}`
          : k.createdVia === "command_line"
            ? "made with the command line"
            : k.createdVia === "sandbox"
              ? "made by a sandbox"
              : "maker not recorded";
      console.log(`${k.id}  ${k.prefix}…  ${k.plane} ${k.kind}  ${state}  ${used}  ${maker}${k.name ? `  "${k.name}"` : ""}`);
    }
  },
  async "revoke-key"(f) {
    const dev = await developerOf(f);
    const n = await revokeApiKey({ developerId: dev.id, idOrPrefix: need(f, "key") });
    if (n === 0) throw new Error("No active key matched.");
    console.log(`Revoked ${n} key${n > 1 ? "s" : ""}.`);
  },
  async "rotate-key"(f) {
    const dev = await developerOf(f);
    const rotated = await rotateApiKey({ developerId: dev.id, keyId: need(f, "key"), createdBy: { via: "command_line" } });
    if (!rotated) throw new Error("No active, unrotated key with this id.");
    console.log(
      `New ${rotated.record.plane} ${rotated.record.kind} key (id ${rotated.record.id}). It is shown once; store it now:\n\n  ${rotated.key}\n\nThe old key works until ${rotated.oldKeyStopsAt.toISOString()}. The MCP sessions it minted have ended, and it mints no more.`,
    );
  },
  async "create-agent"(f) {
    const dev = await developerOf(f);
    const agent = await createAgent({ developerId: dev.id, handle: need(f, "handle"), displayName: f.name });
    console.log(JSON.stringify(agentView(agent), null, 2));
  },
  async "list-agents"(f) {
    const dev = await developerOf(f);
    console.log(JSON.stringify((await listAgents(dev.id)).map(agentView), null, 2));
  },
  async "deactivate-agent"(f) {
    const dev = await developerOf(f);
    if (!(await setAgentActive({ developerId: dev.id, handle: need(f, "handle"), active: false }))) throw new Error("No such agent.");
    console.log("Agent deactivated.");
  },
  async "activate-agent"(f) {
    const dev = await developerOf(f);
    if (!(await setAgentActive({ developerId: dev.id, handle: need(f, "handle"), active: true }))) throw new Error("No such agent.");
    console.log("Agent activated.");
  },
  async "rotate-signing-key"(f) {
    const delay = f["delay-seconds"] === undefined ? SIGNING_KEY_ACTIVATION_DELAY_SECONDS : Number(f["delay-seconds"]);
    if (!Number.isInteger(delay) || delay < 0) throw new Error("--delay-seconds must be a whole number of seconds, 0 or more");
    // The key being replaced must exist first, so the new one waits out the delay.
    await ensureSigningKey();
    const key = await createSigningKey({ delaySeconds: delay });
    console.log(`Signing key ${key.kid} published; it signs from ${key.activatesAt.toISOString()}.`);
  },
  async "list-signing-keys"() {
    for (const k of await listSigningKeys()) console.log(`${k.kid}  signs from ${k.activatesAt.toISOString()}  ${k.state}`);
  },
  async "set-partner-phone-first"(f) {
    const dev = await developerOf(f);
    if (!!f.on === !!f.off) throw new Error("give one of --on or --off");
    const { partnerPhoneFirst } = await setPartnerPhoneFirst({ developerId: dev.id, on: !!f.on });
    console.log(`Partner phone-first order for ${dev.name}: ${partnerPhoneFirst ? "on" : "off"}.`);
  },
  async "add-origin"(f) {
    const dev = await developerOf(f);
    console.log(`Origin approved: ${await addOrigin({ developerId: dev.id, origin: need(f, "origin") })}`);
  },
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(HELP);
    return command ? 0 : 1;
  }
  const run = commands[command];
  if (!run) {
    console.error(`Unknown command '${command}'.\n\n${HELP}`);
    return 1;
  }
  let values: Flags;
  try {
    const parsed = parseArgs({
      args: rest,
      options: {
        ...Object.fromEntries(["name", "tier", "developer", "kind", "plane", "key", "handle", "origin", "delay-seconds"].map((n) => [n, { type: "string" as const }])),
        // Switches (set-partner-phone-first): present reads as "true".
        on: { type: "boolean" as const },
        off: { type: "boolean" as const },
      },
      strict: true,
    }).values;
    values = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v === true ? "true" : v === false ? undefined : v]));
  } catch (err) {
    console.error(`Error: ${(err as Error).message}\n\n${HELP}`);
    return 1;
  }
  try {
    await run(values);
    return 0;
  } catch (err) {
    console.error(`Error: ${err instanceof ApiError || err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await closeDatabase();
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
