import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { languageCookie } from '~/lib/i18n.server';
import { readFormData } from '~/lib/form.server';
import { LanguageChoiceSchema } from '~/schemas/languages-form';
import { safeRedirect } from '~/utils/safe-redirect';
import { languageUrl } from '~/utils/page-language';

/**
 * The footer's choice of language, from every public page: it is kept in the `lang` cookie and
 * the visitor goes back to the page they were on, without a `?lang=` that would outrank it. A
 * language we do not write changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const back = safeRedirect(formData.get('redirectTo'), '/');
  const url = new URL(back, 'http://site');
  const to = languageUrl('', url.pathname, url.search, null) + url.hash;
  const choice = LanguageChoiceSchema.safeParse({ lang: formData.get('lang') });
  if (!choice.success) return redirect(to);
  return redirect(to, {
    headers: { 'Set-Cookie': await languageCookie.serialize(choice.data.lang) },
  });
}

export async function loader() {
  return redirect('/');
}
