// The head of a docs page: the section label, the page's one h1, and its lead paragraph.
export function DocsHero({ title, width, children }: { title: string; width: "max-w-4xl" | "max-w-6xl"; children: React.ReactNode }) {
  return (
    <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50/70 to-white">
      <div className={`mx-auto ${width} px-4 py-12 sm:px-6 sm:py-16 lg:px-8`}>
        <p className="text-sm font-semibold text-brand-700">Docs</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        <p className="mt-4 max-w-2xl text-lg leading-8 text-pretty text-slate-600">{children}</p>
      </div>
    </div>
  );
}
