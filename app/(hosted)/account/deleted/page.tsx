// /account/deleted — where a deleted account's browser lands, signed out.
import type { Metadata } from "next";
import { AccountDeletedPage } from "@/components/account/pages/deleted";

export const metadata: Metadata = { title: "Account deleted", robots: { index: false } };

export default function AccountDeletedRoute() {
  return <AccountDeletedPage />;
}
