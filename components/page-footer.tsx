// The small footer under a hosted page's or the dashboard's content: the mark and one line saying
// whose page this is.
import { LogoMark } from "./site-header";

export function PageFooter({ children }: { children: React.ReactNode }) {
  return (
    <footer className="flex items-start justify-center gap-2 px-4 pb-6 text-xs text-slate-600">
      <LogoMark className="mt-px size-4 shrink-0" />
      <span>{children}</span>
    </footer>
  );
}
