// The dashboard's form fields that recur: a labelled choice from a list, and the plane (test first, the
// plane to start with). Labels are visible (a hidden part may name what the field is for when a page
// has several alike) and tied to their control by id.
import { inputStyle, labelStyle } from "./styles";

export function SelectField({
  id,
  name,
  label,
  options,
  defaultValue,
  className,
}: {
  id: string;
  name: string;
  label: React.ReactNode;
  /** Value and text of each choice, in order. */
  options: ReadonlyArray<readonly [string, string]>;
  defaultValue?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue ?? options[0]?.[0]} className={inputStyle}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export const PLANE_OPTIONS = [
  ["test", "Test"],
  ["live", "Live"],
] as const;

/** The plane a new key, client or destination is for: test unless chosen otherwise. */
export function PlaneField({ id, label = "Plane" }: { id: string; label?: React.ReactNode }) {
  return <SelectField id={id} name="plane" label={label} options={PLANE_OPTIONS} />;
}
