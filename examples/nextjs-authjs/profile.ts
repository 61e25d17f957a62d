// The person's profile, read on the server with the access token from the sign-in.
import "server-only";
import { config } from "./config";

export interface Profile {
  name: string | null;
  summary: string;
  facts: string[];
}

/** The parts of GET /v1/profile?sections=identity,preferences,summary this page shows, or the error answer. */
interface ProfileAnswer {
  identity?: { name?: string; facts?: string[] };
  preferences?: string[];
  summary?: string;
  error?: { code: string; message: string };
}

/** The profile the service holds for the person behind `accessToken`, or the error it answered. */
export async function readProfile(accessToken: string): Promise<{ profile: Profile } | { error: string }> {
  const headers = { "x-api-key": config.secretKey, "x-agent": config.agent, authorization: `Bearer ${accessToken}` };
  let answer: ProfileAnswer;
  try {
    const res = await fetch(`${config.serviceUrl}/v1/profile?sections=identity,preferences,summary`, { headers, cache: "no-store" });
    answer = (await res.json()) as ProfileAnswer;
  } catch (err) {
    return { error: `The profile could not be read: ${String(err)}` };
  }
  if (answer.error) return { error: `${answer.error.code}: ${answer.error.message}` };
  return {
    profile: {
      name: answer.identity?.name ?? null,
      summary: answer.summary ?? "",
      facts: [...(answer.identity?.facts ?? []), ...(answer.preferences ?? [])],
    },
  };
}
