"use client";
// The root layout itself could not be drawn: the same page, in a document of its own.
import "./globals.css";
import { Unavailable } from "@/components/unavailable";

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <head>
        <title>We&rsquo;ll be right back · Profile Service</title>
      </head>
      <body>
        <Unavailable digest={error.digest} reset={reset} />
      </body>
    </html>
  );
}
