"use client";
// Where a dashboard page says what a form did when the form itself is gone: removing an origin,
// revoking a line or cancelling a job takes its row (and the row's form, with its answer) off the
// page in the same render. Such an answer is shown here, at the top of the page's content, announced
// to screen readers, and the focus, which the removed button held, moves to it.
import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";

type Announce = (message: string) => void;

const NoticeContext = createContext<Announce | null>(null);

/** The page's announcer; null outside the dashboard's shell (a form then keeps its answer to itself). */
export function useDashboardNotice(): Announce | null {
  return useContext(NoticeContext);
}

export function DashboardNotices({ children }: { children: React.ReactNode }) {
  const [message, setMessage] = useState<{ text: string; at: number } | null>(null);
  const region = useRef<HTMLParagraphElement>(null);
  const announce = useCallback<Announce>((text) => setMessage({ text, at: Date.now() }), []);
  useEffect(() => {
    // The focus was on the removed form's button: it is now on the body. Bring it here.
    if (message && (document.activeElement === document.body || document.activeElement === null)) region.current?.focus();
  }, [message]);
  return (
    <NoticeContext.Provider value={announce}>
      <div aria-live="polite" aria-atomic="true">
        {message && (
          <p
            key={message.at}
            ref={region}
            tabIndex={-1}
            className="mt-6 rounded-xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-900 ring-1 ring-emerald-200 focus:outline-2 focus:outline-offset-2 focus:outline-emerald-700"
            data-testid="dashboard-notice"
          >
            {message.text}
          </p>
        )}
      </div>
      {children}
    </NoticeContext.Provider>
  );
}
