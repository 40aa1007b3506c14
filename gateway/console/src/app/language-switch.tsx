import { useContext, useId } from 'react';
import { useSetLocale } from '@refinedev/core';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { shellMessages } from './messages.ts';

/** English or Turkish, for the console's words and the platform's messages (Accept-Language). */
export function LanguageSwitch() {
  const t = useT(shellMessages);
  const language = useContext(LanguageContext);
  const setLocale = useSetLocale();
  const id = useId();
  return (
    <span className="header-item">
      <label htmlFor={id}>{t('language')}</label>{' '}
      <select id={id} value={language} onChange={(event) => setLocale(event.target.value)}>
        <option value="en" lang="en">
          {t('english')}
        </option>
        <option value="tr" lang="tr">
          {t('turkish')}
        </option>
      </select>
    </span>
  );
}
