/**
 * Why no text can go to the recipient's phone (the parcel's `phoneProblem`), said where staff see
 * the number: a warning only, the parcel is saved and e-mailed all the same. Nothing is said when
 * no phone was typed.
 */
export function PhoneTextWarning({
  phone,
  problem,
}: {
  phone: string | null | undefined;
  problem: string | null | undefined;
}) {
  if (!phone?.trim() || !problem) return null;
  return (
    <p role="note" className="text-sm text-amber-800 sm:col-span-2">
      No texts can go to this phone: {problem}.
    </p>
  );
}
