import { useFormAction, useNavigation } from '@remix-run/react';

type FormMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Whether a form of this page is on its way: what a busy label ('Saving...') shows, with
 * JavaScript (without it the browser's own loading indicator is all there is). As the Epic Stack's:
 * the submission must go to `formAction` (by default the action of the route rendering this, as a
 * `<Form>` without `action` posts to) with `formMethod`. `formData` narrows it to the submission
 * carrying those values, for pages with several forms (`{ intent: 'delete' }`, a row's id).
 * `state` 'submitting' lets the label go once the answer has arrived; by default it stays until
 * the page that follows is loaded.
 */
export function useIsPending({
  formAction,
  formMethod = 'POST',
  state = 'non-idle',
  formData,
}: {
  formAction?: string;
  formMethod?: FormMethod;
  state?: 'submitting' | 'loading' | 'non-idle';
  formData?: Record<string, string>;
} = {}): boolean {
  const contextualFormAction = useFormAction();
  const navigation = useNavigation();
  const pendingState =
    state === 'non-idle' ? navigation.state !== 'idle' : navigation.state === state;
  return (
    pendingState &&
    navigation.formAction === (formAction ?? contextualFormAction) &&
    navigation.formMethod?.toUpperCase() === formMethod &&
    Object.entries(formData ?? {}).every(
      ([name, value]) => navigation.formData?.get(name) === value,
    )
  );
}
