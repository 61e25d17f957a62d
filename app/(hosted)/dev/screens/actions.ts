"use server";
// The screen gallery's actions: every form on a gallery screen (a flow screen, a person's page, the
// developer dashboard) posts here, and nothing changes.
import { redirect } from "next/navigation";

/** A form's action that answers with the form's last state: a flow screen's, a dashboard form's. */
export async function keepState<State>(state: State): Promise<State> {
  return state;
}

export async function backToGallery(): Promise<void> {
  redirect("/dev/screens");
}
