// Names for the generated request and answer types (src/generated/openapi.ts) as the library uses them.
import type * as api from "./generated/openapi.js";

export type { Operations } from "./generated/openapi.js";

/** The person a profile call is about: the developer's own user id (X-User-Id), or a user's token (an agent token from sign-in, or an OpenID Connect access token). */
export type UserRef = { userId: string; token?: never } | { token: string; userId?: never };

/**
 * The conversation a profile call is part of, and the turn within it: your own ids (1–128 letters,
 * digits, `.`, `_`, `:` or `-`), sent as `X-Service-Conversation-Id` and `X-Service-Turn-Id`. The
 * service records them with the call, scoped to your account, plane and agent, so the reads and the
 * commit of one turn are one turn in the person's access log: the REST counterpart of an MCP session.
 */
export type TurnRef = { conversationId: string; turnId?: string };

export type ReadQuery = api.GetV1ProfileQuery;
export type Profile = api.GetV1ProfileResponse;
export type SearchQuery = api.GetV1ProfileSearchQuery;
export type SearchResult = api.GetV1ProfileSearchResponse;
export type RememberInput = api.PostV1ProfileRememberBody;
export type RememberResult = api.PostV1ProfileRememberResponse;
export type ForgetInput = api.PostV1ProfileForgetBody;
export type ForgetResult = api.PostV1ProfileForgetResponse;
export type ImportInput = api.PostV1ProfileImportBody;
export type ImportResult = api.PostV1ProfileImportResponse;
export type CommitInput = api.PostV1ProfileCommitBody;
export type CommitResult = api.PostV1ProfileCommitResponse;
export type CommitMessage = NonNullable<CommitInput["messages"]>[number];
export type McpSession = api.PostV1ProfileMcpSessionResponse;
export type ExchangeAnswer = api.PostV1AuthSignInExchangeResponse;
export type Validation = api.PostV1AuthSignInValidateResponse;
export type ReturnDestinationRegistration = api.PostV1AuthSignInReturnDestinationsResponse;
export type ReturnDestinationList = api.GetV1AuthSignInReturnDestinationsResponse;
export type ReturnDestinationRemoval = api.DeleteV1AuthSignInReturnDestinationsResponse;
export type MessageLineInput = api.PostV1AuthSignInMessageLinesBody;
export type MessageLineRegistration = api.PostV1AuthSignInMessageLinesResponse;
export type MessageLineList = api.GetV1AuthSignInMessageLinesResponse;
export type MessageLineRevocation = api.DeleteV1AuthSignInMessageLinesResponse;
export type MessageLineRevokeInput = api.DeleteV1AuthSignInMessageLinesBody;
export type MessageSignInInput = Omit<api.PostV1AuthSignInMessageUrlBody, "required">;
export type MessageSignInUrl = api.PostV1AuthSignInMessageUrlResponse;
export type Recognition = api.PostV1AuthSignInRecognizePhoneResponse;
