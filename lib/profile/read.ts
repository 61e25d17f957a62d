// The composed profile as GET /v1/profile returns it: identity from the account, the approved agents.
import { db } from "../db";
import { agentView } from "../agents/agents";

export type ProfileSection = "identity" | "preferences" | "summary";
export const PROFILE_SECTIONS: readonly ProfileSection[] = ["identity", "preferences", "summary"];

export async function readProfile(input: { userId: string; sections?: readonly ProfileSection[] }) {
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({
    where: { id: input.userId },
    select: {
      name: true,
      givenName: true,
      familyName: true,
      picture: true,
      birthdate: true,
      location: true,
      email: true,
      emailProof: true,
      approvals: {
        where: { revokedAt: null },
        orderBy: { approvedAt: "asc" },
        select: { approvedAt: true, agent: { select: { handle: true, displayName: true, active: true, createdAt: true } } },
      },
    },
  });
  const identity = Object.fromEntries(
    Object.entries({
      name: user.name,
      given_name: user.givenName,
      family_name: user.familyName,
      picture: user.picture,
      birthdate: user.birthdate,
      location: user.location,
      email: user.email,
      email_verified: user.email ? user.emailProof !== "none" : null,
    }).filter(([, v]) => v !== null),
  );
  const sections = new Set(input.sections ?? PROFILE_SECTIONS);
  const full = !input.sections;
  return {
    linked: true,
    ...(sections.has("identity") ? { identity } : {}),
    // Preferences and the summary are composed from memories; an account without memories has none.
    ...(sections.has("preferences") ? { preferences: [] as string[] } : {}),
    ...(sections.has("summary") ? { summary: "" } : {}),
    ...(full
      ? {
          connections: [],
          integrations: [],
          imports: [],
          agents: user.approvals.map((a) => ({ ...agentView(a.agent), approved_at: a.approvedAt.toISOString() })),
        }
      : {}),
  };
}
