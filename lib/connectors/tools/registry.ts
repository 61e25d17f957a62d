// Every connector tool, in the order tools/list shows them, and which are served here: the
// Outlook ones (service_email_search) only when the Outlook connector is enabled: its provider
// configured, or the development provider standing in. service_email_send sends through Outlook
// only then.
import { canConnectApp } from "../providers";
import type { ConnectorToolDefinition } from "./definition";
import { GOOGLE_TOOLS } from "./google";
import { MICROSOFT_TOOLS } from "./microsoft";
import { NOTION_TOOLS } from "./notion";

export const CONNECTOR_TOOL_DEFINITIONS: readonly ConnectorToolDefinition[] = [...GOOGLE_TOOLS, ...NOTION_TOOLS, ...MICROSOFT_TOOLS];

/** The tools served now: those needing Outlook only when the Outlook connector is enabled. */
export function enabledConnectorTools<T extends { definition: ConnectorToolDefinition }>(tools: readonly T[]): readonly T[] {
  const outlook = canConnectApp("outlook");
  return tools.filter((t) => !t.definition.needsOutlook || outlook);
}

/** The definition named so, whether or not it is served now. */
export function connectorToolDefinition(name: string): ConnectorToolDefinition {
  const definition = CONNECTOR_TOOL_DEFINITIONS.find((d) => d.name === name);
  if (!definition) throw new Error(`No connector tool ${name}`);
  return definition;
}
