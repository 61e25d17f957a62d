// Webhooks (/docs/webhooks): what the service tells a developer's server, how it is signed and
// verified with either client library, and how deliveries are retried and shown. The event table (each
// event's data fields from its schema) and the limits come from the code (lib/webhooks); docs/webhooks.md
// in the repository is the full text.
import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { DocsHero } from "@/components/site/docs-hero";
import { Code, CodeBlock, DocsBody, LINK, P, Section, Table } from "@/components/site/docs-parts";
import { env } from "@/lib/env";
import { WEBHOOK_SENDS_PER_MINUTE } from "@/lib/webhooks/deliveries";
import { RETRY_DELAYS_SECONDS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TIMEOUT_MS } from "@/lib/webhooks/deliver";
import { EVENT_DATA, TEST_EVENT_TYPE, WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/catalogue";
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_SECRET_OVERLAP_HOURS } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Webhooks",
  description: "Events the Profile Service sends your server: approvals, revocations, deleted accounts, apps and import jobs, signed the Standard Webhooks way.",
};

const SECTIONS = [
  { id: "endpoints", title: "Add an endpoint" },
  { id: "events", title: "Events" },
  { id: "sent", title: "What is sent" },
  { id: "verify", title: "Verify a delivery" },
  { id: "retries", title: "Retries and the log" },
] as const;

/** 60 → "1 minute", 21600 → "6 hours". */
function spoken(seconds: number): string {
  const [n, unit] = seconds >= 3600 ? [seconds / 3600, "hour"] : [seconds / 60, "minute"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

const DELIVERY = `POST /your/webhook HTTP/1.1
Content-Type: application/json
webhook-id: evt_7rWm0hQ1xT5bVd2nKc9pLs3e
webhook-timestamp: 1764322800
webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=

{"id":"evt_7rWm0hQ1xT5bVd2nKc9pLs3e","type":"approval.revoked","createdAt":"2026-11-28T09:40:00.000Z",
 "livemode":true,"data":{"userId":"6f1c3a52-…","externalIds":["user-42"],"agent":"assistant"}}`;

const VERIFY_TS = `import { WebhookVerificationError, verifyWebhook } from "@profile-service/client";

export async function POST(req: Request): Promise<Response> {
  try {
    const event = await verifyWebhook(WEBHOOK_SECRET, req.headers, await req.text()); // the endpoint's whsec_… secret
    if (event.type === "approval.revoked") await stopActingFor(String(event.data.userId));
    return new Response(null, { status: 204 }); // a retry of an event already handled is answered the same way
  } catch (err) {
    if (err instanceof WebhookVerificationError) return new Response(null, { status: 400 });
    throw err;
  }
}`;

const VERIFY_PY = `from profile_service import WebhookVerificationError, verify_webhook

def webhook(request):  # any framework: the raw body and the headers
    try:
        event = verify_webhook(WEBHOOK_SECRET, request.headers, request.body)
    except WebhookVerificationError:
        return 400
    if event["type"] == "approval.revoked":
        stop_acting_for(event["data"]["userId"])
    return 204`;

export default function WebhooksPage() {
  const base = env().BASE_URL.replace(/\/+$/, "");
  const create = `curl -s -X POST ${base}/v1/webhooks/endpoints \\
  -H "X-API-Key: $SK" \\
  -H 'Content-Type: application/json' \\
  -d '{ "url": "https://app.example/webhooks/profile", "events": ["approval.revoked", "user.deleted"] }'
# → 201 { "endpoint": { "id": "whe_…", … }, "secret": "whsec_…" }   (the secret is shown here once)`;
  const test = `curl -s -X POST ${base}/v1/webhooks/endpoints/whe_…/test -H "X-API-Key: $SK"`;
  const lastTry = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0) / 3600;
  return (
    <>
      <SiteHeader current="docs" />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        <DocsHero title="Webhooks" width="max-w-4xl" current="webhooks">
          The service tells your server what changed for the people and jobs of your account: a person approved or revoked one of your agents, deleted their account, gave an agent
          an app or took it back, a bulk import job ended. Each event is POSTed to your endpoints, signed the{" "}
          <a href="https://www.standardwebhooks.com/" className={LINK}>
            Standard Webhooks
          </a>{" "}
          way, and retried until your server answers.
        </DocsHero>
        <DocsBody sections={SECTIONS}>
          <Section id="endpoints" title="Add an endpoint">
            <P>
              An endpoint belongs to your account and to the plane of the key that adds it: live people&rsquo;s events go to live endpoints, test people&rsquo;s to test endpoints.
              Add one with a secret key, or on the dashboard&rsquo;s{" "}
              <Link href="/dashboard/webhooks" className={LINK}>
                Webhooks
              </Link>{" "}
              page:
            </P>
            <CodeBlock label="Add an endpoint" code={create} testId="webhooks-create" />
            <P>
              A live endpoint is <Code>https</Code>; a test endpoint may also be <Code>http://localhost</Code>. Leave <Code>events</Code> out to receive every type. Each plane
              holds up to {MAX_WEBHOOK_ENDPOINTS} endpoints. Rotating the secret keeps the old one signing beside the new one for {WEBHOOK_SECRET_OVERLAP_HOURS} hours by default,
              so either verifies while you switch.
            </P>
          </Section>

          <Section id="events" title="Events">
            <Table
              caption="Event types"
              head={["Type", "Sent when", "data"]}
              rows={WEBHOOK_EVENT_TYPES.map((type) => [
                <Code key="t">{type}</Code>,
                WEBHOOK_EVENTS[type],
                <span key="d">
                  {Object.keys(EVENT_DATA[type].shape).map((field, i) => (
                    <span key={field}>
                      {i > 0 && ", "}
                      <Code>{field}</Code>
                    </span>
                  ))}
                </span>,
              ])}
            />
            <P>
              <Code>userId</Code> is the service&rsquo;s id of the person (their ID token&rsquo;s <Code>sub</Code>); <Code>externalIds</Code> are your own user ids for them in that
              plane (what you send as <Code>X-User-Id</Code>); <Code>agent</Code> is your agent&rsquo;s handle. An event carries ids and counts only, never anything of the
              person&rsquo;s profile. <Code>{TEST_EVENT_TYPE}</Code> goes to one endpoint when you ask for it:
            </P>
            <CodeBlock label="Send a test event" code={test} />
          </Section>

          <Section id="sent" title="What is sent">
            <CodeBlock label="A delivery" code={DELIVERY} />
            <P>
              The body is <Code>{"{ id, type, createdAt, livemode, data }"}</Code>. Its <Code>id</Code> is the <Code>webhook-id</Code> header, the same at every try and every
              resend: deduplicate on it. <Code>webhook-signature</Code> holds one <Code>v1,…</Code> entry per secret signing now: the base64 HMAC-SHA256 of the{" "}
              <Code>webhook-id</Code>, the <Code>webhook-timestamp</Code> and the body joined by dots, keyed with the secret&rsquo;s bytes after <Code>whsec_</Code>.
            </P>
          </Section>

          <Section id="verify" title="Verify a delivery">
            <P>
              Both client libraries carry the check. Pass the body exactly as received, before parsing it; a timestamp more than five minutes away, a missing header or no matching
              signature is refused. Any Standard Webhooks library verifies these deliveries as well.
            </P>
            <CodeBlock label="TypeScript: @profile-service/client" code={VERIFY_TS} />
            <CodeBlock label="Python: profile_service" code={VERIFY_PY} />
            <P>
              Install either from this service (
              <Link href="/docs/client#install" className={LINK}>
                the client library
              </Link>
              ). Answer <Code>2xx</Code> quickly once verified and do the work afterwards.
            </P>
          </Section>

          <Section id="retries" title="Retries and the log">
            <P>
              A try has {WEBHOOK_TIMEOUT_MS / 1000} seconds. Any answer but <Code>2xx</Code> (redirects are not followed), a timeout or a failed connection fails it, and the next
              try comes {RETRY_DELAYS_SECONDS.map(spoken).join(", then ")} later: {WEBHOOK_MAX_ATTEMPTS} tries in all, the last about {Math.round(lastTry)} hours after the first.
              The service never calls a private address outside development mode.
            </P>
            <P>
              Every delivery keeps its status (<Code>pending</Code>, <Code>delivered</Code>, <Code>failed</Code>) and each try&rsquo;s response code, duration and error, never your
              answer&rsquo;s body. Read them with <Code>GET /v1/webhooks/deliveries</Code> or on the dashboard, and send one again under the same <Code>webhook-id</Code> with the
              delivery&rsquo;s <Code>resend</Code> route or &ldquo;Send again&rdquo;: test events and resends count together, {WEBHOOK_SENDS_PER_MINUTE} a minute.
            </P>
          </Section>
        </DocsBody>
      </main>
      <SiteFooter />
    </>
  );
}
