// Where a deleted account's browser lands, signed out.
import Link from "next/link";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { secondaryButton } from "@/components/flow/styles";

export function AccountDeletedPage() {
  return (
    <FlowShell own appName={SERVICE_NAME} title="Your account is deleted">
      <p role="status" className="mt-3 text-slate-600">
        Your profile and everything the service held about you are gone, and you are signed out. Agents you had approved can no longer read anything.
      </p>
      <Link href="/" className={`${secondaryButton} mt-6`}>
        Home
      </Link>
    </FlowShell>
  );
}
