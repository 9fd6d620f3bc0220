import { Link } from '@remix-run/react';

/** The company's mark and name: on the site, the dashboard and the sign-in pages. */
export function Logo({ name }: { name: string }) {
  return (
    <span className="flex items-center gap-2 text-lg font-extrabold tracking-tight text-brand-800">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8 shrink-0">
        <rect width="32" height="32" rx="6" fill="#1d4ed8" />
        <path d="M7 11l9-5 9 5v10l-9 5-9-5z" fill="none" stroke="#fff" strokeWidth="2" />
        <path d="M7 11l9 5 9-5M16 16v10" fill="none" stroke="#fb923c" strokeWidth="2" />
      </svg>
      {name}
    </span>
  );
}

/** The logo centred over a sign-in card, linking to the site's home page. */
export function HomeLogo({ name }: { name: string }) {
  return (
    <div className="mb-6 flex justify-center">
      <Link to="/" reloadDocument aria-label={`${name} home`}>
        <Logo name={name} />
      </Link>
    </div>
  );
}
