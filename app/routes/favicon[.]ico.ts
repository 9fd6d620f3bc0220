import { redirect } from '@remix-run/node';

/**
 * Browsers ask for /favicon.ico on pages that name no icon, such as the receipt print tab. Answered
 * here (a resource route, so no root loader runs), the request never reaches the 404 page, whose
 * render would take the flash message meant for the page the visitor is looking at.
 */
export function loader() {
  return redirect('/favicon.svg', 301);
}
