// The box each kind of fact is filed into (docs/distillation.md); a project gets projects/<slug>.
import type { FactKind } from "./types";

export const BOX_OF_KIND: Record<FactKind, string> = {
  name: "identity",
  location: "identity",
  work: "work",
  relationship: "relationships",
  like: "preferences",
  dislike: "preferences",
  preference: "preferences",
  project: "projects",
  plan: "plans",
  other: "other",
};
