"use server";
// The screen gallery's actions: every form on a gallery screen posts here, and nothing changes.
import { redirect } from "next/navigation";
import type { FormState } from "@/lib/flow/steps";

export async function keepState(state: FormState): Promise<FormState> {
  return state;
}

export async function backToGallery(): Promise<void> {
  redirect("/dev/screens");
}
