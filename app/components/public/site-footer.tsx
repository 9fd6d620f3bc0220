import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useLocation } from '@remix-run/react';
import { NewsletterSchema } from '~/schemas/public-forms';
import type { CompanyInfo } from '~/lib/env.server';
import { NAV_LINKS } from './site-header';

/** Posts to /newsletter, which answers with a flash message back on the page it was sent from. */
export function NewsletterForm() {
  const [form, fields] = useForm({
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewsletterSchema }),
  });
  const location = useLocation();
  return (
    <form
      method="post"
      action="/newsletter"
      {...getFormProps(form)}
      className="flex flex-col gap-2 sm:flex-row sm:items-start"
    >
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {/* Left empty by people; bots that fill every field are ignored. */}
      <div aria-hidden="true" className="absolute -left-[9999px]">
        <label>
          Leave this field empty
          <input type="text" name="website" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      <label htmlFor="newsletter-email" className="sr-only">
        Email address
      </label>
      <div className="w-full min-w-0">
        <input
          {...getInputProps(fields.email, { type: 'email' })}
          id="newsletter-email"
          required
          maxLength={254}
          placeholder="Your email address"
          autoComplete="email"
          className="w-full min-w-0 rounded-md border border-blue-300 bg-brand-900 px-3 py-2 text-sm text-white placeholder:text-blue-200"
        />
        {fields.email.errors ? (
          <p id={fields.email.errorId} className="mt-1 text-sm text-red-200">
            {fields.email.errors.join(' ')}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-accent">
        Subscribe
      </button>
    </form>
  );
}

export function SiteFooter({ company }: { company: CompanyInfo }) {
  return (
    <footer className="mt-auto bg-brand-900 text-blue-100">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{company.name}</p>
          <p className="mt-3 text-sm">
            Door-to-door parcel delivery to more than 200 countries, with every scan visible in real
            time.
          </p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="font-semibold text-white">Quick Links</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <a href={link.to} className="hover:text-white hover:underline">
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/quote" className="hover:text-white hover:underline">
                Get Quote
              </a>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="font-semibold text-white">Contact</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a
                href={`tel:${company.phone.replace(/[^\d+]/g, '')}`}
                className="hover:text-white hover:underline"
              >
                {company.phone} (24/7)
              </a>
            </li>
            <li>
              <a
                href={`mailto:${company.email}`}
                className="[overflow-wrap:anywhere] hover:text-white hover:underline"
              >
                {company.email}
              </a>
            </li>
            <li>350 Fifth Avenue, Suite 4100, New York, NY 10118</li>
          </ul>
        </div>
        <div>
          <h2 className="font-semibold text-white">Newsletter</h2>
          <p className="mb-3 mt-3 text-sm">
            Shipping tips, service updates and holiday cut-off dates. No spam.
          </p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t border-brand-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>© 2024 {company.name}. All rights reserved.</p>
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-4">
              <li>
                <a href="/privacy-policy" className="hover:text-white hover:underline">
                  Privacy Policy
                </a>
              </li>
              <li>
                <a href="/terms-of-service" className="hover:text-white hover:underline">
                  Terms of Service
                </a>
              </li>
              <li>
                <a href="/cookie-policy" className="hover:text-white hover:underline">
                  Cookie Policy
                </a>
              </li>
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
