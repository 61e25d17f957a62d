// POST|GET|DELETE /v1/auth/sign-in/message-lines — the provider-owned numbers the acting agent texts
// people from, per key plane and channel; answers show a line's last four digits, never its number.
import { defineRoute } from "@/lib/api-edge/define-route";
import { lineView, listLines, registerLine, registerLineBody, revokeLineBody, revokeLines } from "@/lib/sign-in/message-lines";
import { messageLineResponse, messageLinesDeletedResponse, messageLinesResponse } from "@/lib/sign-in/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/message-lines",
  summary: "Register a provider-owned message line for the acting agent (201), or make a registered one active again with its new label and metadata (200).",
  responses: { 200: messageLineResponse, 201: messageLineResponse },
  errors: ["invalid_phone", "invalid_metadata"],
  auth: { key: "secret", agent: true, user: "none" },
  bodyLimit: 16 * 1024,
  body: registerLineBody,
  handler: async ({ key, agent, body }) => {
    const { line, created } = await registerLine({ developerId: key.developerId, agentId: agent.id, plane: key.plane, ...body });
    return { status: created ? 201 : 200, body: { line: lineView(line) } };
  },
});

export const GET = defineRoute({
  method: "GET",
  path: "/v1/auth/sign-in/message-lines",
  summary: "List the acting agent's active message lines in the key's plane, without raw phone numbers.",
  responses: { 200: messageLinesResponse },
  auth: { key: "secret", agent: true, user: "none" },
  handler: async ({ key, agent }) => ({ body: { lines: (await listLines({ developerId: key.developerId, agentId: agent.id, plane: key.plane })).map(lineView) } }),
});

export const DELETE = defineRoute({
  method: "DELETE",
  path: "/v1/auth/sign-in/message-lines",
  summary: "Revoke the acting agent's active line(s) with this number (on the channel named, or on every channel).",
  responses: { 200: messageLinesDeletedResponse },
  errors: ["invalid_phone", "not_found"],
  auth: { key: "secret", agent: true, user: "none" },
  body: revokeLineBody,
  handler: async ({ key, agent, body }) => ({
    body: { deleted: true, lines: (await revokeLines({ developerId: key.developerId, agentId: agent.id, plane: key.plane, ...body })).map(lineView) },
  }),
});
