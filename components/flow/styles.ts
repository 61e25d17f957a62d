// Button styles shared by the hosted flow's server-rendered pages and its client forms.
const buttonBase = "inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-xl px-4 text-base font-semibold transition-colors disabled:cursor-not-allowed";
export const primaryButton = `${buttonBase} bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-200 disabled:text-slate-500`;
export const secondaryButton = `${buttonBase} bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50`;
