// Getting started (/docs/getting-started): from sandbox keys to a signed-in person and a profile read,
// in four steps. The addresses are this service's own; the page server is examples/button-page's file
// itself, the script tag carries the integrity value of the script this service serves now, and the
// client library installs from this service's own /sdk/v1/.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { DocsHero } from "@/components/site/docs-hero";
import { Code, CodeBlock, DocsBody, LINK, P, Section } from "@/components/site/docs-parts";
import { env } from "@/lib/env";
import { SANDBOX_AGENT_NAME } from "@/lib/sandbox/seed";
import { npmTarballUrl, SDK_INDEX_PATH } from "@/lib/sdk/files";
import { SSO_SCRIPT_PATH, ssoScript } from "@/lib/sdk/sso-script";
import browserPackage from "@/packages/browser/package.json";
import clientPackage from "@/packages/client/package.json";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Getting started",
  description: "Five minutes from sandbox keys to a person signed in with the Profile Service button and their profile read.",
};

const SECTIONS = [
  { id: "before", title: "Before you start" },
  { id: "keys", title: "1. Get test keys" },
  { id: "callback", title: "2. Register your callback" },
  { id: "page", title: "3. Save the page" },
  { id: "sign-in", title: "4. Sign in" },
  { id: "your-page", title: "The button on your page" },
  { id: "agent", title: "From your agent" },
  { id: "live", title: "Going live" },
] as const;

/** Where the example page listens; its callback is registered in step 2. */
const PAGE_PORT = 4000;

export default async function GettingStartedPage() {
  const base = env().BASE_URL.replace(/\/+$/, "");
  const [server, script] = await Promise.all([readFile(path.join(process.cwd(), "examples", "button-page", "server.mjs"), "utf8"), ssoScript()]);
  const callback = `http://localhost:${PAGE_PORT}/callback`;

  const provision = `curl -s -X POST ${base}/v1/sandbox/provision`;
  const provisionAnswer = `{
  "secret_key": "sk_test_…",
  "publishable_key": "pk_test_…",
  "agent": { "handle": "sandbox-agent", "sign_in_url": "${base}/sign-in/sandbox-agent" },
  "user": { "phone": "+15555550100", "verification_code": "424242", … }
}`;
  const exports = `export SK=sk_test_…        # secret_key
export PK=pk_test_…        # publishable_key
export AGENT=sandbox-agent # agent.handle`;
  const register = `curl -s -X POST ${base}/v1/sso/client \\
  -H 'Content-Type: application/json' \\
  -d "{ \\"publishable_key\\": \\"$PK\\", \\"redirect_uri\\": \\"${callback}\\" }"`;
  const registerAnswer = `{ "client_id": "oc_…" }

export CLIENT_ID=oc_…`;
  const run = `SERVICE_URL=${base} CLIENT_ID=$CLIENT_ID SECRET_KEY=$SK AGENT=$AGENT PORT=${PAGE_PORT} node server.mjs`;
  const tag = `<script src="${base}${SSO_SCRIPT_PATH}?v=${script.version}"
        integrity="${script.integrity}"
        crossorigin="anonymous"></script>

<service-sso-button client-id="oc_…" redirect-uri="${callback}"
                    agent-name="Trailhead"></service-sso-button>`;
  const callbackPage = `<script src="${base}${SSO_SCRIPT_PATH}?v=${script.version}"
        integrity="${script.integrity}"
        crossorigin="anonymous"></script>
<script>Service.handleSsoCallback({ exchangeUrl: "/exchange" });</script>`;
  const install = `npm install ${npmTarballUrl(clientPackage)}`;
  const browserInstall = `npm install ${npmTarballUrl(browserPackage)}`;
  const browserModule = `import { configure, defineServiceSsoButton } from "@profile-service/browser";

configure({ baseUrl: "${base}" });
defineServiceSsoButton(); // in the browser only: it returns false where there is no DOM`;
  const agent = `import { ProfileClient, readForTurn } from "@profile-service/client";

const service = new ProfileClient({ baseUrl: "${base}", apiKey: SK, agent: "sandbox-agent" }); // SK: the sk_test_… key from step 1
const profile = await readForTurn(service, { user: { userId: "sandbox-user" } });
console.log(profile.summary);`;

  return (
    <>
      <SiteHeader current="docs" />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        <DocsHero title="Getting started" width="max-w-6xl" current="getting-started">
          Five minutes from sandbox keys to a person signed in with the button on your page, and their profile read by your server.
        </DocsHero>

        <DocsBody sections={SECTIONS}>
          <Section id="before" title="Before you start">
            <P>
              You need Node 20 or later, <Code>curl</Code>, and this service at <Code>{base}</Code>. The sandbox needs no account: its keys work on the test plane only, where a
              synthetic person is already waiting.
            </P>
          </Section>

          <Section id="keys" title="1. Get test keys">
            <CodeBlock label="Provision a sandbox" code={provision} testId="step-provision" />
            <P>The answer holds a secret key, a publishable key, an agent, and the sandbox person:</P>
            <CodeBlock label="Answer" code={provisionAnswer} />
            <P>Keep three of its values in your shell:</P>
            <CodeBlock label="Keep the keys" code={exports} />
            <P>The secret key stays on servers. The publishable key is safe in a browser: it only creates sign-in clients.</P>
          </Section>

          <Section id="callback" title="2. Register your callback">
            <P>
              The button signs people in with OpenID Connect. Create a client for the page&rsquo;s callback address with the publishable key. A callback on <Code>localhost</Code>{" "}
              needs nothing else.
            </P>
            <CodeBlock label="Create a client" code={register} testId="step-register" />
            <CodeBlock label="Answer" code={registerAnswer} />
          </Section>

          <Section id="page" title="3. Save the page">
            <P>
              Save this file as <Code>server.mjs</Code>. It has no dependencies. It serves a page with the button and a callback page. The callback page sends the authorization
              code to the server, which exchanges it at <Code>/oauth/token</Code> with the PKCE verifier made in the browser. The server then reads the profile with the access
              token. The tokens never reach the browser.
            </P>
            <CodeBlock label="server.mjs" code={server} testId="step-server" />
          </Section>

          <Section id="sign-in" title="4. Sign in">
            <CodeBlock label="Start the page" code={run} testId="step-run" />
            <ol className="list-decimal space-y-2 pl-6 text-base leading-7 text-slate-700" data-testid="sign-in-steps">
              <li>
                Open <Code>http://localhost:{PAGE_PORT}</Code> and press <strong>Sign in with Profile Service</strong>. The sign-in opens in a popup.
              </li>
              <li>
                Press <strong>Sign in</strong> beside &ldquo;Already have a profile?&rdquo;, under the popup&rsquo;s heading. Enter the sandbox number <Code>+1 555 555 0100</Code>{" "}
                (United States, <Code>555 555 0100</Code>), then the code <Code>424242</Code>. No message is sent.
              </li>
              <li>
                You are signed in, and the popup offers to import more memories or connect apps. The sandbox person&rsquo;s profile is already filled, so press{" "}
                <strong>Continue to {SANDBOX_AGENT_NAME}</strong>.
              </li>
              <li>
                Press <strong>Return to {SANDBOX_AGENT_NAME}</strong>, or wait five seconds. The popup closes and the page shows the sandbox person&rsquo;s name, summary and what
                is known about them, read by your server.
              </li>
            </ol>
            <P>
              The popup names your agent as it is registered: the sandbox&rsquo;s is {SANDBOX_AGENT_NAME}, and your own agents&rsquo; names are set in the dashboard. The
              button&rsquo;s <Code>agent-name</Code> attribute words only its tooltip.
            </P>
            <P>Anyone else signs up in the same popup: they bring memories from an assistant, confirm their phone number, and approve your agent.</P>
          </Section>

          <Section id="your-page" title="The button on your page">
            <P>
              On a page of your own, load the script with its integrity value and place the element. This is the current version of the script; a new version of the service gives a
              new address and value, shown here.
            </P>
            <CodeBlock label="Your page" code={tag} testId="step-tag" />
            <P>The callback page loads the same script and hands the code to your server&rsquo;s exchange route:</P>
            <CodeBlock label="Your callback page" code={callbackPage} />
            <P>
              The element takes <Code>client-id</Code>, <Code>redirect-uri</Code>, <Code>agent-name</Code>, <Code>scopes</Code> and <Code>width</Code>, and reports each step to the
              page as the events <Code>service:sso-start</Code>, <Code>service:sso-open</Code>, <Code>service:sso-authenticated</Code>, <Code>service:sso-error</Code> and{" "}
              <Code>service:sso-close</Code>. Any OpenID Connect library works as well: discovery is at <Code>/.well-known/openid-configuration</Code>, and PKCE with S256 is
              required for every client.
            </P>
            <P>
              In an app built with a bundler (Vite, webpack, Next.js), install the same code as an ES module instead of the script tag. Importing it changes nothing on the page
              until you call it, so it also loads in server rendering; the callback page calls <Code>handleSsoCallback</Code> from the same package.
            </P>
            <CodeBlock label="Install the browser library" code={browserInstall} testId="step-install-browser" />
            <CodeBlock label="In your app" code={browserModule} />
          </Section>

          <Section id="agent" title="From your agent">
            <P>
              Your agent reads and writes the same profile with the secret key, by your own user id once linked, or by a token. The client library wraps every route; its fail-open
              helpers let a turn go on without the profile when the service cannot answer in time. Install it from this service, which serves the library built from its own
              sources:
            </P>
            <CodeBlock label="Install the client library" code={install} testId="step-install" />
            <P>
              It installs as <Code>@profile-service/client</Code>.{" "}
              <a href={SDK_INDEX_PATH} className={LINK}>
                <Code>{SDK_INDEX_PATH}</Code>
              </a>{" "}
              lists the files served, with their versions and hashes.
            </P>
            <CodeBlock label="agent.ts" code={agent} />
            <P>
              See the{" "}
              <Link href="/docs/client" className={LINK}>
                client library reference
              </Link>{" "}
              and the{" "}
              <Link href="/docs/api" className={LINK}>
                API reference
              </Link>
              . To give a model the person&rsquo;s profile tools over MCP, through Anthropic&rsquo;s or OpenAI&rsquo;s API or an agent framework, see{" "}
              <Link href="/docs/mcp-sessions" className={LINK}>
                MCP sessions
              </Link>
              .
            </P>
          </Section>

          <Section id="live" title="Going live">
            <P>
              Live keys (<Code>sk_</Code>, <Code>pk_</Code>) sign in real people; nothing seen with test keys is visible to them. Register your production callback the same way. A
              callback on an origin other than <Code>localhost</Code> must be approved first with <Code>POST /v1/sso/origins</Code> (see the{" "}
              <Link href="/docs/api" className={LINK}>
                API reference
              </Link>
              ).
            </P>
          </Section>
        </DocsBody>
      </main>
      <SiteFooter />
    </>
  );
}
