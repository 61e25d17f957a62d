// An e-mail address in running text: on a narrow screen it wraps before the @ or a dot of its domain,
// not in the middle of a word (and mid-word only when one part is wider than the line).
import { Fragment } from "react";

export function EmailAddress({ email, className = "" }: { email: string; className?: string }) {
  const at = email.lastIndexOf("@");
  const local = at < 0 ? email : email.slice(0, at);
  const domain = at < 0 ? [] : email.slice(at + 1).split(".");
  return (
    <span className={`break-words ${className}`}>
      {local}
      {at >= 0 && (
        <>
          <wbr />@
          {domain.map((part, i) => (
            <Fragment key={i}>
              {i > 0 && (
                <>
                  <wbr />.
                </>
              )}
              {part}
            </Fragment>
          ))}
        </>
      )}
    </span>
  );
}
