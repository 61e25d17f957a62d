// A tool call on the developer MCP server ({baseUrl}/mcp), answered as a value or a ServiceError.
import { ServiceError, WIRE_ERROR_CODES, type ServiceErrorCode } from "./errors.js";

/** The JSON-RPC error code of a commit_required refusal. */
export const MCP_COMMIT_REQUIRED = -32009;

type ToolContent = { type: string; text?: string };
export type ToolCallAnswer = {
  result?: { isError?: boolean; content?: ToolContent[]; structuredContent?: unknown };
  error?: { code: number; message: string; data?: unknown };
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The value of a tool call's answer, or the ServiceError it stands for (`baseUrl`: the service's address, for `docUrl`). */
export function toolResult(name: string, answer: ToolCallAnswer, baseUrl?: string): unknown {
  const toolFailure = (code: ServiceErrorCode, type: string, message: string, details: Record<string, unknown> = {}) =>
    new ServiceError({ code, type, message, statusCode: 200, details, baseUrl });
  if (answer.error) {
    const { code, message, data } = answer.error;
    const details = data && typeof data === "object" ? (data as Record<string, unknown>) : {};
    if (code === MCP_COMMIT_REQUIRED) throw toolFailure("COMMIT_REQUIRED", "commit_required", message, details);
    if (code === -32602 && /not found/i.test(message)) throw toolFailure("ACCESS_DENIED", "tool_not_found", message, details);
    throw toolFailure("TOOL_ERROR", `jsonrpc_${code}`, message, details);
  }
  const result = answer.result ?? {};
  const text = (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");
  if (!result.isError) return result.structuredContent ?? parseJson(text) ?? text;
  const parsed = parseJson(text) as { error?: Record<string, unknown> } | undefined;
  const error = parsed?.error;
  if (error && typeof error.code === "string") {
    const mapped = WIRE_ERROR_CODES[error.code];
    const message = typeof error.message === "string" ? error.message : `${name} failed.`;
    // A tool's own failure (a connector that failed) is TOOL_ERROR; a refused request keeps its code.
    const code: ServiceErrorCode = !mapped || mapped === "SERVER_ERROR" ? "TOOL_ERROR" : mapped;
    throw toolFailure(code, error.code, message, error);
  }
  // The personal tools answer this way when nobody approved the agent: the user must connect first.
  if (/connect first|service_connect/i.test(text)) throw toolFailure("TOOL_NOT_CONNECTED", "not_connected", text, { tool: name });
  throw toolFailure("TOOL_ERROR", "tool_error", text || `${name} failed.`, { tool: name });
}
