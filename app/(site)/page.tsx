// Home page (/): what the service is, a sandbox walk-through, and the way to the docs.
import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";

export const metadata: Metadata = {
  title: { absolute: "Profile Service · Personal profiles and sign-in for AI agents" },
};

const CAPABILITIES: { title: string; body: React.ReactNode; icon: React.ReactNode }[] = [
  {
    title: "A profile built from memories",
    body: (
      <>
        Identity, preferences and a summary, composed from memories. Memories come from an imported assistant (ChatGPT, Claude, Gemini, Grok), from connected apps (Gmail, Calendar,
        Drive, Notion, Outlook), and from what agents commit during conversations.
      </>
    ),
    icon: <path d="M4 6h16M4 12h10M4 18h13" />,
  },
  {
    title: "Approved once, per agent",
    body: (
      <>
        An agent is a named handle sent as <Code>X-Agent</Code>. A user approves it once; from then on it can read and write that user&rsquo;s profile. A request about a user who
        has not approved the agent is answered <Code>403</Code>.
      </>
    ),
    icon: (
      <>
        <path d="M12 3l7 3v5c0 4.5-3 8.2-7 10-4-1.8-7-5.5-7-10V6l7-3z" />
        <path d="M9 12l2 2 4-4" />
      </>
    ),
  },
  {
    title: "REST and MCP",
    body: (
      <>
        The profile over REST under <Code>/v1</Code>: read, search, remember, forget, commit and import. The same operations as MCP tools, with short-lived MCP sessions for one
        user that an LLM API can call with the Bearer token it is given.
      </>
    ),
    icon: <path d="M8 7l-5 5 5 5M16 7l5 5-5 5M14 4l-4 16" />,
  },
  {
    title: "OpenID Connect sign-in",
    body: (
      <>
        An OpenID Connect provider: authorization-code flow with PKCE, always <Code>S256</Code>. The ID token carries the service&rsquo;s user id and, optionally, a verified email.
        Hosted sign-in links give each agent a sign-in address of its own.
      </>
    ),
    icon: (
      <>
        <circle cx="8" cy="15" r="4" />
        <path d="M11 12l9-9M16 7l3 3M14 9l2 2" />
      </>
    ),
  },
];

const PROVISION = `curl -s -X POST \\
  http://localhost:3000/v1/sandbox/provision`;

const KEEP = `SK="sk_test_…"           # secret_key
AGENT="sandbox-agent"    # agent.handle
USER_ID="sandbox-user"   # user.external_id`;

const READ = `curl -s http://localhost:3000/v1/profile \\
  -H "X-API-Key: $SK" \\
  -H "X-Agent: $AGENT" \\
  -H "X-User-Id: $USER_ID"`;

export default function HomePage() {
  return (
    <>
      <SiteHeader current="home" />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        <Hero />
        <Capabilities />
        <Sandbox />
        <DocsBand />
      </main>
      <SiteFooter />
    </>
  );
}

function Hero() {
  return (
    <section aria-labelledby="hero-title" className="border-b border-slate-200 bg-gradient-to-b from-brand-50/70 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-[1.05fr_1fr] lg:px-8 lg:py-24">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-brand-700">Personalization profile and sign-in service</p>
          <h1 id="hero-title" className="mt-3 text-4xl font-semibold tracking-tight text-balance text-slate-900 sm:text-5xl">
            Personal profiles for AI agents
          </h1>
          <p className="mt-5 max-w-xl text-base leading-7 text-pretty text-slate-600 sm:text-lg sm:leading-8">
            Profile Service keeps a profile for each of your users — identity, preferences and a summary built from their memories — and shares it only with the agents they
            approve. Agents read and write it over REST and MCP; apps sign users in with OpenID Connect or a hosted sign-in link.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link
              href="/docs"
              className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-900"
            >
              Read the docs
            </Link>
            <a
              href="#sandbox"
              className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-800 hover:border-slate-400 hover:bg-slate-50"
            >
              Try the sandbox
            </a>
          </div>
        </div>
        <ProfileExample />
      </div>
    </section>
  );
}

/** A request and the shape of its answer; values are elided rather than invented. On a phone the lines wrap rather than run out of sight. */
function ProfileExample() {
  const key = "text-sky-300";
  const str = "text-emerald-300";
  const dim = "text-slate-400";
  return (
    <figure className="min-w-0 overflow-hidden rounded-xl bg-slate-900 shadow-xl ring-1 ring-slate-900/10">
      <figcaption className="flex items-center justify-between border-b border-white/10 px-4 py-2.5 text-xs text-slate-300">
        <span>An approved agent reads the profile</span>
        <span className="rounded bg-white/10 px-1.5 py-0.5 font-mono text-[0.6875rem] text-slate-200">REST</span>
      </figcaption>
      <pre
        tabIndex={0}
        aria-label="Example request and response for GET /v1/profile"
        className="overflow-x-auto p-4 font-mono text-xs leading-6 text-slate-100 max-sm:whitespace-pre-wrap max-sm:[overflow-wrap:anywhere] sm:text-[0.8125rem]"
      >
        <code>
          <span className="text-amber-300">GET</span> /v1/profile?sections=identity,preferences,summary{"\n"}
          <span className={dim}>X-API-Key:</span> sk_test_…{"\n"}
          <span className={dim}>X-Agent:</span> sandbox-agent{"\n"}
          <span className={dim}>Authorization:</span> Bearer &lt;agent token&gt;{"\n"}
          {"\n"}
          <span className={dim}>200 OK</span>
          {"\n"}
          {"{"}
          {"\n"}
          {"  "}
          <span className={key}>&quot;linked&quot;</span>: <span className="text-violet-300">true</span>,{"\n"}
          {"  "}
          <span className={key}>&quot;identity&quot;</span>: {"{ "}
          <span className={key}>&quot;name&quot;</span>: <span className={str}>&quot;…&quot;</span>, <span className={key}>&quot;email&quot;</span>:{" "}
          <span className={str}>&quot;…&quot;</span>
          {" },"}
          {"\n"}
          {"  "}
          <span className={key}>&quot;preferences&quot;</span>: [ … ],{"\n"}
          {"  "}
          <span className={key}>&quot;summary&quot;</span>: <span className={str}>&quot;…&quot;</span>,{"\n"}
          {"  "}
          <span className={key}>&quot;livemode&quot;</span>: <span className="text-violet-300">false</span>
          {"\n"}
          {"}"}
        </code>
      </pre>
    </figure>
  );
}

function Capabilities() {
  return (
    <section aria-labelledby="capabilities-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
      <div className="max-w-2xl">
        <h2 id="capabilities-title" className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
          What the service does
        </h2>
        <p className="mt-3 text-base leading-7 text-slate-600">One profile per user, one approval per agent, and the same rules on every surface.</p>
      </div>
      <ul className="mt-10 grid gap-5 sm:grid-cols-2">
        {CAPABILITIES.map((c) => (
          <li key={c.title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
            <span className="inline-flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <svg
                viewBox="0 0 24 24"
                className="size-5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
                focusable="false"
              >
                {c.icon}
              </svg>
            </span>
            <h3 className="mt-4 text-base font-semibold text-slate-900">{c.title}</h3>
            <p className="mt-2 text-[0.9375rem] leading-7 text-slate-600">{c.body}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Sandbox() {
  return (
    <section id="sandbox" aria-labelledby="sandbox-title" className="scroll-mt-20 border-y border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-[20rem_1fr] lg:gap-16 lg:px-8">
        <div>
          <h2 id="sandbox-title" className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
            Try the sandbox
          </h2>
          <p className="mt-3 text-base leading-7 text-slate-600">
            No signup. One request returns a secret and a publishable test key, an agent, and a synthetic user who has already approved that agent. The test user&rsquo;s
            verification code is always <Code>424242</Code>, and no message is ever sent.
          </p>
          <p className="mt-3 text-sm leading-6 text-slate-500">
            The commands assume the service runs locally on port 3000 (<Code>npm start</Code>).
          </p>
        </div>
        <ol className="min-w-0 space-y-8">
          <Step n={1} title="Provision a sandbox">
            <CodeBlock label="Provision a sandbox" code={PROVISION} />
          </Step>
          <Step n={2} title="Keep three values from the response">
            <CodeBlock label="Values from the provision response" code={KEEP} />
          </Step>
          <Step n={3} title="Read the user's profile as the agent">
            <CodeBlock label="Read the profile" code={READ} />
            <p className="mt-3 text-sm leading-6 text-slate-600">
              To name the user by token rather than by your own id, send the returned <Code>user.agent_token</Code> as <Code>Authorization: Bearer</Code> in place of{" "}
              <Code>X-User-Id</Code>.
            </p>
          </Step>
        </ol>
      </div>
    </section>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <li className="min-w-0">
      <h3 className="flex items-center gap-3 text-base font-semibold text-slate-900">
        <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-white text-sm font-semibold text-brand-700 ring-1 ring-slate-300">
          {n}
        </span>
        <span className="sr-only">Step {n}: </span>
        {title}
      </h3>
      {/* Full width on phones so commands get the room; aligned under the title from sm up. */}
      <div className="mt-3 min-w-0 sm:pl-11">{children}</div>
    </li>
  );
}

function DocsBand() {
  return (
    <section aria-labelledby="docs-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
      <div className="flex flex-col gap-6 rounded-2xl border border-slate-200 p-6 sm:p-8 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <h2 id="docs-title" className="text-xl font-semibold tracking-tight text-slate-900">
            API conventions on one page
          </h2>
          <p className="mt-2 text-base leading-7 text-slate-600">Headers, key prefixes and planes, the error body, how 401 differs from 403, and the sandbox routes.</p>
        </div>
        <Link
          href="/docs"
          className="inline-flex min-h-11 shrink-0 items-center justify-center gap-2 rounded-lg bg-slate-900 px-5 text-sm font-semibold text-white hover:bg-slate-700"
        >
          Open the docs <span aria-hidden="true">→</span>
        </Link>
      </div>
    </section>
  );
}

function Code({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] whitespace-nowrap text-slate-800 ring-1 ring-slate-200 ring-inset">{children}</code>;
}

/** Long commands wrap on a phone and scroll sideways inside the block above it; the page itself never scrolls sideways. */
function CodeBlock({ label, code }: { label: string; code: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className="overflow-x-auto rounded-lg bg-slate-900 px-4 py-3.5 font-mono text-xs leading-6 text-slate-100 shadow-sm max-sm:whitespace-pre-wrap max-sm:[overflow-wrap:anywhere] sm:text-[0.8125rem]"
    >
      <code>{code}</code>
    </pre>
  );
}
