// An agent's conversation that fails open: one MCP session for the conversation, and each turn reads
// the profile, answers, and commits the turn. When the service is unreachable the agent still answers.
import { ProfileClient, callToolForTurn, failOpen, type UserRef } from "../../packages/client/src/index.js";

// eslint-disable-next-line no-restricted-properties -- an example app is configured by its own environment
const { SERVICE_URL = "http://localhost:3000", SECRET_KEY, AGENT, USER_ID } = process.env;
if (!SECRET_KEY || !AGENT || !USER_ID) throw new Error("Set SECRET_KEY (sk_…), AGENT (the agent's handle) and USER_ID (your id for the person).");

const service = new ProfileClient({ baseUrl: SERVICE_URL, apiKey: SECRET_KEY, agent: AGENT });
const BUDGET_MS = 2_000;

interface ProfileView {
  summary?: string;
  preferences?: string[];
  identity?: { name?: string; facts?: string[] };
}

/** A canned reply standing in for a model: it uses what the profile gave, or answers without it. */
function answer(message: string, profile: ProfileView | null): string {
  const known = [...(profile?.identity?.facts ?? []), ...(profile?.preferences ?? [])];
  if (known.length === 0) return `You asked: "${message}". Here is a general answer.`;
  return `You asked: "${message}". With what I know about you (${known.slice(0, 2).join("; ")}), here is an answer for you.`;
}

// The session is minted once per conversation; without one the turns name the person by X-User-Id.
const minted = await failOpen("mcp session", (o) => service.mcpSession({ userId: USER_ID, ...o }), null, { budgetMs: BUDGET_MS });
const user: UserRef = minted.ok ? { token: minted.value.session.token } : { userId: USER_ID };
console.log(minted.ok ? `mcp session: ok (linked: ${minted.value.linked})` : "mcp session: unavailable");

for (const message of ["What should I do this weekend?", "Any tips for my next run?"]) {
  const profile = (await callToolForTurn(service, { name: "service_profile_read", arguments: {}, user, budgetMs: BUDGET_MS })) as ProfileView | null;
  console.log(profile ? `read: ok (${(profile.preferences ?? []).length} preferences)` : "read: unavailable, answering without the profile");
  const reply = answer(message, profile);
  console.log(`answer: ${reply}`);
  const committed = (await callToolForTurn(service, {
    name: "service_profile_commit",
    arguments: { messages: [{ role: "user", content: message }], response: reply },
    user,
    budgetMs: BUDGET_MS,
  })) as { commit_id?: string; status?: string } | null;
  console.log(committed ? `commit: ok (${committed.commit_id}, ${committed.status})` : "commit: unavailable, the turn goes on");
}
