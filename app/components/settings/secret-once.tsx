import { Field } from '~/components/ui/field';

/** A key or secret shown on the answer that created it, and never again. */
export function SecretOnce({
  heading,
  label,
  value,
  children,
}: {
  heading: string;
  label: string;
  value: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby="secret-once-heading"
      className="card space-y-3 border-green-200 bg-green-50 p-4"
    >
      <h2 id="secret-once-heading" className="text-lg font-semibold text-green-900">
        {heading}
      </h2>
      <p className="text-sm text-green-900">{children}</p>
      <Field
        label={label}
        value={value}
        readOnly
        onFocus={(e) => e.currentTarget.select()}
        className="[&_input]:font-mono"
      />
    </section>
  );
}
