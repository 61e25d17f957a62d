"use client";
// A hosted page that could not be drawn: the "we'll be right back" page, with Try again.
import { Unavailable } from "@/components/unavailable";

export default function HostedError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <Unavailable digest={error.digest} reset={reset} />;
}
