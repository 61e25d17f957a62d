// The "profile_signup" way in: the service's own sign-up (GET /sign-up). Its flow is for no app, ends
// on the service's home page, and offers the mailbox page after the code while no mailbox is connected.
import { z } from "zod";
import { MAILBOX_APPS } from "../../catalogue";
import { DEVELOPMENT_PROVIDER } from "../../connectors/types";
import { db } from "../../platform/db";
import { importFirstOrder } from "../screens";
import { startFlow } from "../start";
import { profileHome } from "../urls";
import { PLAIN_TRAITS, type WayIn } from "./types";

export const profileSignup: WayIn<"profile_signup", Record<string, never>> = {
  name: "profile_signup",
  request: z.strictObject({}),
  screens: (input) => importFirstOrder(input),
  traits: () => ({ ...PLAIN_TRAITS, own: true }),
  async mailboxAfterCode(flow, userId) {
    const mailboxes = await (
      await db()
    ).appConnection.count({
      // A development connection (/dev/connect) is no mailbox of the person's: the page is still offered.
      where: { OR: [{ userId }, { flowId: flow.id }], status: "active", app: { in: [...MAILBOX_APPS] }, provider: { not: DEVELOPMENT_PROVIDER } },
    });
    return mailboxes === 0;
  },
  returnTo: async () => profileHome(),
  declineTo: async () => profileHome(),
};

/** GET /sign-up: a flow for no app, in the live plane. */
export async function openProfileSignup(ip: string) {
  return startFlow(profileSignup, { plane: "live", required: [], request: {}, ip });
}
