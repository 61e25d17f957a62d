// The import screen's steps: a preview from an assistant, keeping or dropping it, "Sign in" (phone and
// code first), and Continue.
import { isAssistant } from "../../catalogue";
import { BringInError, previewExport, previewPaste, type BroughtIn } from "../bring-in";
import { StepError } from "../errors";
import { countPreview, withPreviewSlot } from "../preview-limits";
import { continueState } from "../queries";
import { nextScreen, traitsOf } from "../sequence";
import type { Flow } from "../store";
import { applyStep, assertOpen, changeBroughtIn, saveAndApprove } from "../transitions";
import { wayOf } from "../ways-in";

/**
 * A pasted answer or an uploaded export becomes this assistant's preview (replacing an earlier one).
 * Each counts against the flow's and (given `ip`, the browser's address) the network's preview
 * budgets; a large file is read only while the process has a slot for it (lib/flow/preview-limits.ts).
 */
export async function previewImport(flow: Flow, input: { provider: string; text?: string; file?: Uint8Array | Blob; ip?: string }): Promise<BroughtIn> {
  assertOpen(flow, ["import"]);
  if (!isAssistant(input.provider) || !traitsOf(flow).assistants.includes(input.provider)) throw new StepError("provider", "Choose an assistant.");
  const provider = input.provider;
  const file = input.file;
  const size = file ? (file instanceof Uint8Array ? file.byteLength : file.size) : 0;
  let memories;
  try {
    await countPreview({ flowId: flow.id, ip: input.ip });
    memories =
      file && size
        ? await withPreviewSlot(size, async () =>
            previewExport(provider, file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer()), { signedIn: !!flow.userId }),
          )
        : previewPaste(input.text ?? "");
  } catch (err) {
    if (err instanceof BringInError) throw new StepError(size ? "file" : "text", err.message);
    throw err;
  }
  const item: BroughtIn = { provider, via: size ? "file" : "paste", memories, confirmed: false };
  await changeBroughtIn(flow, (current) => [...current.filter((b) => b.provider !== provider), item]);
  return item;
}

/** Keeps (or drops) an assistant's preview. */
export async function decidePreview(flow: Flow, input: { provider: string; keep: boolean }): Promise<void> {
  assertOpen(flow, ["import"]);
  await changeBroughtIn(flow, (current) => {
    const rest = current.filter((b) => b.provider !== input.provider);
    const item = current.find((b) => b.provider === input.provider);
    return input.keep && item ? [...rest, { ...item, confirmed: true }] : rest;
  });
}

/** Continue on the import screen: to the phone number, or (signed in) straight to the receipt. */
export async function continueFromImport(flow: Flow): Promise<void> {
  assertOpen(flow, ["import"]);
  if (!(await continueState(flow)).enabled) throw new StepError("form", "Import from an assistant or connect an app first.");
  if (flow.userId) return saveAndApprove(flow, flow.userId);
  const next = nextScreen(flow, "import");
  // A flow that asks for no number (a partner link's import-only flow): what was brought in goes to the account its way in names.
  const way = wayOf(flow);
  if (next === "receipt" && way.accountWithoutNumber) {
    const account = await way.accountWithoutNumber(flow);
    if ("refused" in account) throw new StepError("form", account.refused);
    return saveAndApprove(flow, account.userId);
  }
  await applyStep(flow, { screen: next });
}

/** "Sign in" under Continue: phone and code first, then the import screen. */
export async function chooseSignIn(flow: Flow): Promise<void> {
  assertOpen(flow, ["import"]);
  if (flow.userId || !traitsOf(flow).signsIn) return;
  await applyStep(flow, { signInFirst: true, screen: "phone" });
}
