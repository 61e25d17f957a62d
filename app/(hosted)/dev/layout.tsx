// Every /dev page: a development surface, absent outside development mode (proxy.ts refuses the path too).
import { notFound } from "next/navigation";
import { developmentMode } from "@/lib/env";

export default function DevelopmentLayout({ children }: { children: React.ReactNode }) {
  if (!developmentMode()) notFound();
  return children;
}
