// /verify/error — a Google or GitHub sign-in that did not prove an address: the provider refused or
// failed, or nobody was signed in here. It leads back to the sign-in it started from.
import type { Metadata } from "next";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { primaryButton } from "@/components/flow/styles";
import { returnFlowPath, verifyFlowCookie } from "@/lib/person-auth/third-party";
import { readCookie } from "@/lib/http/cookies";
import { ownEntry } from "@/lib/platform/own";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Email not confirmed", robots: { index: false } };

const REASONS: Record<string, string> = {
  SignedOut: "Confirming an email address this way needs you to be signed in with your phone number first.",
  Unverified: "That account has no confirmed email address, so nothing changed.",
  AccessDenied: "Access was not allowed, so your email address was not confirmed.",
  OAuthCallbackError: "The sign-in was cancelled or refused, so your email address was not confirmed.",
  Configuration: "This sign-in is not set up correctly on this service. Confirm your address another way.",
};

export default async function VerifyErrorPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  const back = returnFlowPath(await readCookie(verifyFlowCookie));
  return (
    <FlowShell own appName={SERVICE_NAME} title="Your email was not confirmed">
      <p className="mt-3 text-slate-600">{ownEntry(REASONS, error) ?? "Something went wrong while signing in there, so your email address was not confirmed."}</p>
      <a href={back ?? "/"} className={`${primaryButton} mt-6`}>
        {back ? "Back to signing in" : "Go to the home page"}
      </a>
    </FlowShell>
  );
}
