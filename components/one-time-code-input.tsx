// The six-digit sign-in code field, the same on the hosted flow's code screen and the dashboard's: a
// numeric keyboard, the browser's one-time-code autofill, six digits only, focused on arrival. The
// place it sits in gives its look and its error wiring.
import type { ComponentProps } from "react";

export const CODE_PATTERN = "\\d{6}";

export function OneTimeCodeInput(props: Omit<ComponentProps<"input">, "type" | "inputMode" | "autoComplete" | "pattern" | "maxLength">) {
  return <input id="code" name="code" required autoFocus {...props} type="text" inputMode="numeric" autoComplete="one-time-code" pattern={CODE_PATTERN} maxLength={6} />;
}
