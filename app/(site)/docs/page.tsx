// Docs page (/docs): the API's conventions in one page; docs/api.md in the repository is the full reference.
import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { DocsHero } from "@/components/site/docs-hero";
import { Callout, Code, CodeBlock, DocsBody, LINK, P, Section, Table } from "@/components/site/docs-parts";
import { ERROR_STATUS, MESSAGES, type ErrorCode } from "@/lib/http/errors";

export const metadata: Metadata = {
  title: "Docs",
  description: "API conventions of Profile Service: headers, keys and planes, errors, and the sandbox.",
};

const SECTIONS = [
  { id: "addresses", title: "Addresses and versions" },
  { id: "headers", title: "Headers" },
  { id: "keys", title: "Keys and planes" },
  { id: "errors", title: "Errors" },
  { id: "sandbox", title: "Sandbox" },
  { id: "health", title: "Health check" },
  { id: "reference", title: "Full reference" },
] as const;

/** The codes a caller meets first; statuses come from the one code→status table. */
const COMMON_ERRORS: { code: ErrorCode; when: string }[] = [
  { code: "agent_required", when: "No X-Agent header." },
  { code: "user_required", when: "Neither a bearer token nor X-User-Id names the user." },
  { code: "api_key_required", when: "No X-API-Key header." },
  { code: "invalid_api_key", when: "The key is unknown, malformed or revoked." },
  { code: "secret_key_required", when: "A publishable key on a route that needs a secret key." },
  { code: "invalid_access_token", when: "The bearer token is invalid, expired, or belongs to another developer, agent or plane." },
  { code: "agent_not_approved", when: "The user has not approved this agent, or revoked the approval." },
  { code: "sandbox_requires_test_key", when: "A live key on a sandbox route." },
  { code: "unknown_agent", when: "No agent with that handle in this developer account." },
  { code: "unknown_user", when: "An X-User-Id this developer has not linked in this plane." },
  { code: "rate_limited", when: "Over a rate limit; retry_after and a Retry-After header say when to retry." },
];

const ERROR_BODY = `{
  "error": {
    "code": "agent_not_approved",
    "message": "${MESSAGES.agentNotApproved}"
  },
  "request_id": "req_…"
}`;

const RESET = `curl -s -X POST \\
  http://localhost:3000/v1/sandbox/reset \\
  -H "X-API-Key: $SK" \\
  -H "X-Agent: $AGENT"`;

const SIMULATE = `curl -s -X POST \\
  http://localhost:3000/v1/sandbox/simulate \\
  -H "X-API-Key: $SK" \\
  -H "Content-Type: application/json" \\
  -d '{ "scenario": "gmail_token_expired" }'`;

const HEALTH = `curl -s http://localhost:3000/api/ready
# {"status":"ready","database":"ok"}`;

export default function DocsPage() {
  return (
    <>
      <SiteHeader current="docs" />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        <DocsHero title="API conventions" width="max-w-6xl" current="conventions">
          What every request sends and every error returns. Every route, with its parameters and answers, is in the{" "}
          <Link href="/docs/api" className={LINK}>
            API reference
          </Link>
          , drawn from the OpenAPI document at <Code>/openapi.json</Code>.
        </DocsHero>

        <DocsBody sections={SECTIONS}>
          <Section id="addresses" title="Addresses and versions">
            <P>
              The REST API lives under <Code>/v1</Code>. OpenID Connect lives under <Code>/oauth</Code> and <Code>/.well-known</Code>, with no version prefix. Request and response
              bodies are JSON (<Code>Content-Type: application/json</Code>).
            </P>
          </Section>

          <Section id="headers" title="Headers">
            <P>
              Server-side requests carry a secret key and the agent&rsquo;s handle. A request about a user names the user in one of two ways; when both are sent, the bearer token
              wins.
            </P>
            <Table
              caption="Request headers"
              head={["Header", "Value", "Use"]}
              rows={[
                [<Code key="h">X-API-Key</Code>, <Code key="v">sk_…</Code>, "Your secret key. Server-side only."],
                [<Code key="h">X-Agent</Code>, "The agent’s handle", "Every server-side request about a user or an agent."],
                [<Code key="h">Authorization</Code>, <Code key="v">Bearer &lt;token&gt;</Code>, "The user, by an agent token from sign-in or the sandbox."],
                [<Code key="h">X-User-Id</Code>, "Your own user id", "The user, by the id you linked."],
              ]}
            />
          </Section>

          <Section id="keys" title="Keys and planes">
            <P>
              Every key belongs to one plane, live or test, and everything minted from a key, such as an agent token, inherits that plane. A test key never sees a live user and a
              live key never sees a test user.
            </P>
            <Table
              caption="Key prefixes"
              stack={false}
              head={["Prefix", "Kind", "Plane", "Where"]}
              rows={[
                [<Code key="p">sk_</Code>, "Secret", "Live", "Server only"],
                [<Code key="p">sk_test_</Code>, "Secret", "Test", "Server only"],
                [<Code key="p">pk_</Code>, "Publishable", "Live", "Safe in a browser"],
                [<Code key="p">pk_test_</Code>, "Publishable", "Test", "Safe in a browser"],
              ]}
            />
            <P>
              Publishable keys are accepted only where a route says so, such as creating an OpenID Connect client. Secret-key routes grant no CORS origin, so a browser cannot call
              them with a secret key.
            </P>
          </Section>

          <Section id="errors" title="Errors">
            <P>
              Every <Code>/v1</Code> error has the same body. The <Code>X-Request-Id</Code> response header repeats <Code>request_id</Code>; quote it when reporting a problem. Some
              codes add fields, such as <Code>retry_after</Code> on <Code>rate_limited</Code>.
            </P>
            <CodeBlock label="Error body" code={ERROR_BODY} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Callout status={401} title="The credential is wrong">
                The key is missing, wrong or revoked, or the bearer token is invalid. It affects every user: fix the credential.
              </Callout>
              <Callout status={403} title="This user has not approved the agent">
                The credential is fine, but this user has not approved the agent (or revoked it). Send the user to sign in and approve.
              </Callout>
            </div>
            <P>The two are always told apart by status code, and they never share a code. The codes you will meet first:</P>
            <Table
              caption="Common error codes"
              titleCells={2}
              head={["Status", "Code", "When"]}
              rows={COMMON_ERRORS.map((e) => [
                <span key="s" className="tabular-nums">
                  {ERROR_STATUS[e.code]}
                </span>,
                <Code key="c">{e.code}</Code>,
                e.when,
              ])}
            />
          </Section>

          <Section id="sandbox" title="Sandbox">
            <P>
              The sandbox gives test keys and a synthetic user without signup. Its routes accept test keys only; a live key gets <Code>403 sandbox_requires_test_key</Code>.
            </P>
            <Table
              caption="Sandbox routes"
              head={["Route", "Credential", "What it does"]}
              rows={[
                [
                  <Code key="r">POST /v1/sandbox/provision</Code>,
                  "None; rate limited per IP",
                  <>
                    Returns <Code>sk_test_</Code> and <Code>pk_test_</Code> keys, an agent, and a synthetic user who has approved it. The user&rsquo;s verification code is always{" "}
                    <Code>424242</Code>.
                  </>,
                ],
                [
                  <Code key="r">POST /v1/sandbox/reset</Code>,
                  <>
                    <Code>sk_test_</Code> key and <Code>X-Agent</Code>
                  </>,
                  "Restores the synthetic user to its seeded state and clears simulated scenarios.",
                ],
                [
                  <Code key="r">POST /v1/sandbox/simulate</Code>,
                  <>
                    <Code>sk_test_</Code> key
                  </>,
                  <>
                    Body <Code>{"{ scenario }"}</Code>. <Code>gmail_token_expired</Code> makes the Gmail connection fail as a revoked token until the next reset.
                  </>,
                ],
              ]}
            />
            <CodeBlock label="Reset the sandbox" code={RESET} />
            <CodeBlock label="Simulate an expired Gmail token" code={SIMULATE} />
            <P>
              The{" "}
              <Link href="/#sandbox" className={LINK}>
                home page
              </Link>{" "}
              walks through provisioning and a first profile read.
            </P>
          </Section>

          <Section id="health" title="Health check">
            <P>
              <Code>GET /api/ready</Code> answers <Code>200</Code> while the service and its database answer, and <Code>503</Code> while the database does not or the instance is
              shutting down: point a load balancer here. <Code>GET /api/health</Code> answers <Code>200</Code> while the process serves, for a liveness check. Neither needs
              credentials.
            </P>
            <CodeBlock label="Health check" code={HEALTH} />
          </Section>

          <Section id="reference" title="Full reference">
            <P>
              This page covers the conventions only. The{" "}
              <Link href="/docs/api" className={LINK}>
                API reference
              </Link>{" "}
              lists every route from the OpenAPI 3.1 document at <Code>/openapi.json</Code>, built from the routes&rsquo; own contracts. The repository&rsquo;s{" "}
              <Code>docs/api.md</Code> explains each route&rsquo;s behaviour, every error code with its status, the rate limits and CORS; <Code>docs/database.md</Code> covers the
              database.
            </P>
          </Section>
        </DocsBody>
      </main>
      <SiteFooter />
    </>
  );
}
