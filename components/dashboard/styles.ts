// The dashboard's button and field styles: the hosted pages' look, sized for lists of things.
const base = "inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-4 text-sm font-semibold transition-colors disabled:cursor-not-allowed";
export const buttonStyles = {
  primary: `${base} bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-200 disabled:text-slate-500`,
  secondary: `${base} bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 disabled:bg-slate-100 disabled:text-slate-600`,
  danger: `${base} bg-white text-red-700 ring-1 ring-red-200 hover:bg-red-50`,
} as const;
export type ButtonTone = keyof typeof buttonStyles;

export const inputStyle =
  "mt-1.5 block min-h-11 w-full rounded-xl border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600";
export const labelStyle = "block text-sm font-semibold text-slate-900";
export const cardStyle = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6";
