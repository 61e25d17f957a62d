// /dev/screens/<state> — one flow screen in one state, from the gallery's fixtures (lib/flow/gallery.ts):
// the same components the flow page renders, with actions that change nothing.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FlowScreen, type FlowActions } from "@/components/flow/flow-screen";
import { galleryState } from "@/lib/flow/gallery";
import { backToGallery, keepState } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Screen gallery", robots: { index: false } };

const GALLERY_ACTIONS: FlowActions = {
  preview: keepState,
  decide: keepState,
  continueImport: keepState,
  signInFirst: backToGallery,
  phone: keepState,
  code: keepState,
  resend: keepState,
  changeNumber: backToGallery,
  email: keepState,
  emailCode: keepState,
  changeEmail: backToGallery,
  thirdParty: () => backToGallery,
  continueMailbox: keepState,
  continueApp: keepState,
  continueApps: keepState,
  allowCapability: keepState,
};

export default async function GalleryScreenPage({ params }: { params: Promise<{ state: string }> }) {
  const view = galleryState((await params).state);
  if (!view) notFound();
  return <FlowScreen view={view} actions={GALLERY_ACTIONS} />;
}
