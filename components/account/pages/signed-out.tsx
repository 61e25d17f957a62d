// A person's page when no one is signed in (or the session outlived its account): the way to sign in.
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { primaryButton } from "@/components/flow/styles";

const PAGES = {
  account: { title: "Your profile", text: "Sign in with your phone number to see your email address and the apps connected to your profile." },
  memories: { title: "Your memories", text: "Sign in with your phone number to see your memories." },
  delete: { title: "Delete your account", text: "Sign in with your phone number to delete your account." },
} as const;

export function SignedOutPage({ page }: { page: keyof typeof PAGES }) {
  const { title, text } = PAGES[page];
  return (
    <FlowShell own appName={SERVICE_NAME} title={title}>
      <p className="mt-3 text-slate-600">{text}</p>
      <a href="/sign-up" className={`${primaryButton} mt-6`}>
        Sign in
      </a>
    </FlowShell>
  );
}
