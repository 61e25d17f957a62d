// Root layout: document shell shared by the service's pages and the hosted flow.
import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Profile Service", template: "%s · Profile Service" },
  description: "Personal profiles for AI agents, with sign-in you can trust.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#4338ca" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh bg-white font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
