import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { HONEYPOT_FIELD, NewsletterSchema } from '~/schemas/public-forms';
import { redirectWithToast } from '~/lib/flash.server';
import { clientAddress } from '~/lib/rate-limit.server';
import { safeRedirect } from '~/utils/safe-redirect';
import { readFormData } from '~/lib/form.server';
import { newsletterLimiter, signUpForNewsletter } from '~/services/inquiries.server';

const SUCCESS_TOAST = {
  type: 'success',
  title: 'Subscribed',
  description:
    'Thank you for subscribing. Shipping tips and service updates will arrive in your inbox.',
} as const;

/**
 * The footer's newsletter form posts here from every public page, so every answer, a refused
 * address included, is a toast back on that page (with JavaScript the form checks the address
 * before it is sent).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const redirectTo = safeRedirect(formData.get('redirectTo'), '/');
  if (formData.get(HONEYPOT_FIELD)) return redirectWithToast(request, redirectTo, SUCCESS_TOAST);

  const submission = parseWithZod(formData, { schema: NewsletterSchema });
  if (submission.status !== 'success') {
    return redirectWithToast(request, redirectTo, {
      type: 'error',
      title: 'Subscription failed',
      description: submission.error?.email?.[0] ?? 'Enter a valid email address',
    });
  }

  const address = clientAddress(context);
  if (!(await newsletterLimiter.hit(address)).allowed) {
    return redirectWithToast(request, redirectTo, {
      type: 'error',
      title: 'Too many attempts',
      description: 'Please wait a few minutes before subscribing again.',
    });
  }

  await signUpForNewsletter({
    email: submission.value.email,
    source: redirectTo,
    clientAddress: address,
  });
  return redirectWithToast(request, redirectTo, SUCCESS_TOAST);
}

export async function loader() {
  return redirect('/');
}
