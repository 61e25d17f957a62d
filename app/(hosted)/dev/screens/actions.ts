"use server";
// The screen gallery's actions: every form on a gallery screen (a flow screen, a person's page, the
// developer dashboard) posts here, and nothing changes. They stand in for actions of every shape, so
// they take whatever arguments a page binds.
import { redirect } from "next/navigation";
import { defineAction } from "@/lib/actions/define-action";

/** A form's action that answers with the form's last state: a flow screen's, a dashboard form's. */
export const keepState = defineAction({
  auth: "none",
  state: true,
  handler: async ({ state }) => state,
});

export const backToGallery = defineAction({
  auth: "none",
  bound: "any",
  handler: async () => {
    redirect("/dev/screens");
  },
});
