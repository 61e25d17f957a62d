"use client";
// The one copy button: writes text to the clipboard and says "Copied" for two seconds, only when the
// write succeeded. Two looks: the hosted flow's prompt button (its words in a polite live region) and
// the site's code-block button (a short label, and a status line for screen readers).
import { useState } from "react";

type CopyButtonProps = { text: string } & ({ look: "prompt" } | { look: "code"; label: string });

function useCopy(text: string): [boolean, () => void] {
  const [copied, setCopied] = useState(false);
  function copy() {
    navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      },
      () => setCopied(false),
    );
  }
  return [copied, copy];
}

export function CopyButton(props: CopyButtonProps) {
  const [copied, copy] = useCopy(props.text);
  if (props.look === "prompt") {
    return (
      <button type="button" className="inline-flex min-h-10 items-center rounded-lg bg-brand-50 px-3 text-sm font-semibold text-brand-700 hover:bg-brand-100" onClick={copy}>
        <span aria-live="polite">{copied ? "Copied" : "Copy prompt"}</span>
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        onClick={copy}
        aria-label={`Copy ${props.label}`}
        className="rounded px-2 py-1 text-xs font-medium text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-white"
      >
        {copied ? "Copied" : "Copy"}
      </button>
      <span role="status" className="sr-only">
        {copied ? `${props.label} copied` : ""}
      </span>
    </>
  );
}
