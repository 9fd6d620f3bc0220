/** A stop's address opened in the phone's maps app. */
export function MapsLink({ href }: { href: string }) {
  return (
    <a
      href={href}
      className="inline-flex min-h-11 items-center underline"
      target="_blank"
      rel="noreferrer"
    >
      Open in maps
    </a>
  );
}
