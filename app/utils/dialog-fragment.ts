/**
 * The id of a dialog rendered as a page, and the fragment that links opening a dialog end with:
 * without JavaScript the browser scrolls the form into view when the page loads, instead of
 * leaving it below the list the dialog was opened from. Form actions carry no fragment: a
 * browser keeps a request's fragment across the redirect that follows a save. With JavaScript the dialog is a modal and
 * there is no element by that id, so nothing scrolls. Apart from RouteDialog, so that a page
 * linking to a dialog does not load Headless UI for it: the dialog's own route does.
 */
export const DIALOG_ID = 'dialog';
export const DIALOG_FRAGMENT = `#${DIALOG_ID}`;
