"use client";
// A page of the site or the dashboard that could not be drawn: the "we'll be right back" page, with Try again.
import { Unavailable } from "@/components/unavailable";

export default function SiteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <Unavailable digest={error.digest} reset={reset} />;
}
