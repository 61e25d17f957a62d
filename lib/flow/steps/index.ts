// The hosted flow's steps: what each screen's buttons do to the flow, one module per screen. Each step
// checks that the flow is still open and on the screen the step belongs to, then moves it on through
// lib/flow/transitions.ts; the pages only render.
export { allowCapability, continueFromApp, continueFromApps, finishCapabilityConsent } from "./apps";
export { chooseSignIn, continueFromImport, decidePreview, previewImport } from "./import";
export { changeFlowEmail, continueFromMailbox, finishThirdPartyProof, sendFlowEmailCode, thirdPartyProofReady, verifyFlowEmailCode } from "./mailbox";
export { assertAccountFor, changeNumber, continueSignedIn, LINK_FOR_ANOTHER_ACCOUNT, normalisePhone, submitCode, submitPhone } from "./phone";
export { StepAlreadyDone, StepError, type FormState } from "../errors";
