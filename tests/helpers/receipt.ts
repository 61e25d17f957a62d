// Return on the receipt, for tests of what the flow's end does rather than of the screens before it.
import { db } from "@/lib/platform/db";
import { returnToApp } from "@/lib/flow/transitions";

/**
 * The flow put on its receipt for `userId`, as saving and approving leaves it (the one state Return
 * completes from), then Return: the callback URL the browser goes to.
 */
export async function returnFromReceipt(input: { flowId: string; userId: string }): Promise<{ redirectTo: string }> {
  await (await db()).flowSession.update({ where: { id: input.flowId }, data: { screen: "receipt", userId: input.userId } });
  return returnToApp(input);
}
