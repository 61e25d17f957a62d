// Sandbox routes take test-plane keys only: a live key is refused before anything else is looked up.
import { ApiError, MESSAGES } from "../errors";
import type { RequestStep } from "../route-pipeline";

export const requireTestPlane: RequestStep = (def) =>
  def.auth.testPlaneOnly
    ? (s) => {
        if (s.key && s.key.plane !== "test") throw new ApiError("sandbox_requires_test_key", MESSAGES.sandboxRequiresTestKey);
      }
    : null;
