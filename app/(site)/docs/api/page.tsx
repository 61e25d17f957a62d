// The API reference (/docs/api): every operation, drawn from the same OpenAPI document /openapi.json
// serves, which is built from the route contracts.
import type { Metadata } from "next";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { DocsHero } from "@/components/site/docs-hero";
import { ApiReference } from "@/components/site/api-reference";
import { serviceOpenApi } from "../../../openapi.json/document";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "API reference",
  description: "Every route of Profile Service: credentials, parameters, bodies and answers, from its OpenAPI document.",
};

export default function ApiReferencePage() {
  const { document } = serviceOpenApi();
  return (
    <>
      <SiteHeader current="docs" />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        <DocsHero title="API reference" width="max-w-4xl" current="api">
          Every route, from the OpenAPI 3.1 document at{" "}
          <a href="/openapi.json" className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900">
            /openapi.json
          </a>
          , which is built from the routes&rsquo; own contracts. The conventions (headers, keys, errors) are on the{" "}
          <a href="/docs" className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900">
            docs page
          </a>
          .
        </DocsHero>
        <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
          <ApiReference document={document} />
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
