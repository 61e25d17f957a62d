// The client library reference (/docs/client): install (the tarball this service serves), a first call,
// the thirteen error codes (each ServiceError's docUrl points at its row), and every export, generated
// from the package's types.
import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { ClientReference, ErrorTable } from "@/components/site/client-reference";
import { DocsHero } from "@/components/site/docs-hero";
import { Code, CodeBlock, DocsBody, LINK, P, Section } from "@/components/site/docs-parts";
import { env } from "@/lib/env";
import { npmTarballUrl, SDK_INDEX_PATH } from "@/lib/sdk/files";
import clientPackage from "@/packages/client/package.json";
import referenceJson from "@/packages/client/reference.json";
import type { Reference } from "@/packages/client/scripts/generate-reference";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Client library",
  description: "@profile-service/client: every profile route, hosted sign-in, MCP sessions, typed errors and fail-open helpers.",
};

const reference = referenceJson as Reference;

export default function ClientLibraryPage() {
  const base = env().BASE_URL.replace(/\/+$/, "");
  const sections = [
    { id: "install", title: "Install" },
    { id: "first-call", title: "A first call" },
    { id: "error-codes", title: "Error codes" },
    ...reference.sections.map(({ id, title }) => ({ id, title })),
  ];
  const first = `import { ProfileClient, ServiceError } from "${reference.name}";

const service = new ProfileClient({
  baseUrl: "${base}",
  apiKey: SECRET_KEY,                      // your sk_… (sk_test_… in the sandbox), kept on the server
  agent: "assistant",                      // X-Agent
});

try {
  const profile = await service.read({ user: { userId: "user-123" }, sections: "identity,preferences,summary" });
  console.log(profile.summary);
} catch (err) {
  if (err instanceof ServiceError && err.code === "AUTH_REQUIRED") {
    // the key is wrong, or this person has not approved the agent: send them to sign in
  }
  throw err;
}`;
  return (
    <>
      <SiteHeader current="docs" />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        <DocsHero title="Client library" width="max-w-6xl" current="client">
          <Code>{reference.name}</Code> {reference.version}: every profile route, hosted sign-in, MCP sessions and tool calls, one error class, and fail-open helpers for agent
          turns. This reference is generated from the library&rsquo;s own types.
        </DocsHero>
        <DocsBody sections={sections}>
          <Section id="install" title="Install">
            <CodeBlock label="Install" code={`npm install ${npmTarballUrl(clientPackage)}`} testId="client-install" />
            <P>
              This service serves the library built from its own sources; it installs as <Code>{reference.name}</Code>. The file&rsquo;s name carries its version and never changes;{" "}
              <a href={SDK_INDEX_PATH} className={LINK}>
                <Code>{SDK_INDEX_PATH}</Code>
              </a>{" "}
              lists the files served, with their sizes and hashes.
            </P>
            <P>
              ESM with type declarations and no runtime dependencies; it needs only <Code>fetch</Code>, so it runs on Node 20+, Bun, Deno and edge runtimes. It takes a secret key,
              so it belongs on a server. For the sign-in button in a browser, see{" "}
              <Link href="/docs/getting-started#your-page" className={LINK}>
                the button on your page
              </Link>
              .
            </P>
          </Section>
          <Section id="first-call" title="A first call">
            <CodeBlock label="read.ts" code={first} />
            <P>
              Request and answer types come from the service&rsquo;s OpenAPI document; the{" "}
              <Link href="/docs/api" className={LINK}>
                API reference
              </Link>{" "}
              describes every field.
            </P>
          </Section>
          <Section id="error-codes" title="Error codes">
            <P>
              Every failure is a <Code>ServiceError</Code> with one of thirteen codes. Retried errors are tried again with backoff, or after exactly <Code>retryAfter</Code> seconds
              when the service says so. An error&rsquo;s <Code>docUrl</Code> points at its row here.
            </P>
            <ErrorTable rows={reference.errors} />
          </Section>
          <ClientReference reference={reference} />
        </DocsBody>
      </main>
      <SiteFooter />
    </>
  );
}
