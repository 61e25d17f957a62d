// The specification's "First screen by way in" table, row by row, for every way in the service has,
// through the one function that decides the screen order — and through the flows the ways in create.
import { describe, expect, it } from "vitest";
import { GET as signUp } from "@/app/(hosted)/sign-up/route";
import { findFlow } from "@/lib/flow/sessions";
import { firstScreen, screenSequence, WAYS_IN, type Screen, type SequenceInput } from "@/lib/flow/sequence";
import { parseRequiredParam } from "@/lib/oidc/required";
import { createTenant } from "./helpers/fixtures";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "./helpers/oauth";

// [way in as the table names it, the way in, required as sent, scope, first screen]
const TABLE: Array<[string, SequenceInput["wayIn"], string | undefined, string, Screen]> = [
  ["OpenID Connect sign-in", "oidc", undefined, "openid", "import"],
  ["OpenID Connect sign-in, including the email scope", "oidc", undefined, "openid email profile", "import"],
  ["OpenID Connect request whose required entry is email", "oidc", "email", "openid email", "mailbox"],
  ["OpenID Connect request whose required entry is gmail|outlook", "oidc", "gmail|outlook", "openid", "mailbox"],
  ["OpenID Connect request whose required entry is gmail", "oidc", "gmail", "openid", "mailbox"],
  ["OpenID Connect request whose required entry is outlook", "oidc", "outlook", "openid", "mailbox"],
  ["OpenID Connect request with a mailbox entry and another entry", "oidc", "email,chatgpt", "openid", "mailbox"],
  ["OpenID Connect request whose entry mixes a mailbox and an assistant", "oidc", "gmail|chatgpt", "openid", "import"],
  ["OpenID Connect request requiring an assistant", "oidc", "chatgpt", "openid", "import"],
  ["OpenID Connect request whose only entry is a typo", "oidc", "gmial", "openid", "import"],
  ["The service's own profile sign-up", "profile_signup", undefined, "", "import"],
];

describe("first screen by way in", () => {
  it("covers every way in the service has", () => {
    expect(new Set(TABLE.map((r) => r[1]))).toEqual(new Set(WAYS_IN));
  });

  it.each(TABLE)("%s → %s", async (_name, wayIn, required, scope, first) => {
    expect(firstScreen({ wayIn, required: parseRequiredParam(required) })).toBe(first);
    // The flow the way in really creates starts there too.
    let flowId: string;
    if (wayIn === "oidc") {
      const t = await createTenant();
      const { client_id } = await registerClient(t);
      flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge, { scope, required })));
    } else {
      const res = await signUp();
      flowId = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
      expect(res.headers.get("set-cookie")).toContain(`Path=/flow/${flowId}`);
    }
    const flow = (await findFlow(flowId))!;
    expect(flow.wayIn).toBe(wayIn);
    expect(flow.screen).toBe(first);
  });
});

describe("the screen order", () => {
  it("goes import, phone, code, receipt; mailbox first when the way in says so", () => {
    expect(screenSequence({ wayIn: "oidc", required: [] })).toEqual(["import", "phone", "code", "receipt"]);
    expect(screenSequence({ wayIn: "oidc", required: [["gmail", "outlook"]] })).toEqual(["mailbox", "import", "phone", "code", "receipt"]);
    expect(screenSequence({ wayIn: "profile_signup", required: [["gmail"]] })).toEqual(["import", "phone", "code", "receipt"]);
  });

  it("puts phone and code before the import screen for a person who chose Sign in", () => {
    expect(screenSequence({ wayIn: "oidc", required: [], signInFirst: true })).toEqual(["phone", "code", "import", "receipt"]);
  });
});
