import { useTranslation } from 'react-i18next';
import { HONEYPOT_FIELD } from '~/schemas/public-forms';

/** Left empty by people (it is off-screen and out of the tab order); bots that fill every field are ignored. */
export function HoneypotField() {
  const { t } = useTranslation('public');
  return (
    <div aria-hidden="true" className="absolute -start-[9999px] h-px w-px overflow-hidden">
      <label>
        {t('footer.honeypot')}
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
