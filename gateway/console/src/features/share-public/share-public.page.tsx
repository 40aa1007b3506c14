/**
 * The share link's recipient's page (`/console/share/:token`, outside the login and the shell):
 * the file's name and size when the link tells them, a password prompt when it needs one, then
 * the download; an expired, used-up or unknown link, or a wrong password, said in the language
 * chosen on the page.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { currentLanguage, storeLanguage, type Language } from '../../shell/language.ts';
import { formatBytes } from '../documents/format.ts';
import { sharePublicMessages } from './share-public.messages.ts';
import { checkPassword, probe, publicPath, refusalState, type ShareState } from './share-link.probe.ts';
import './share-public.css';

export function SharePublicPage() {
  const [language, setLanguage] = useState<Language>(currentLanguage);
  return (
    <LanguageContext.Provider value={language}>
      <SharePublic
        language={language}
        onLanguage={(next) => {
          storeLanguage(next);
          setLanguage(next);
        }}
      />
    </LanguageContext.Provider>
  );
}

function SharePublic({ language, onLanguage }: { language: Language; onLanguage: (language: Language) => void }) {
  const t = useT(sharePublicMessages);
  const token = useParams().token ?? '';
  const [state, setState] = useState<ShareState>({ kind: 'busy' });
  const [password, setPassword] = useState('');
  const [refusal, setRefusal] = useState<string>();

  useEffect(() => {
    let live = true;
    probe(publicPath(token), language).then(
      (next) => live && setState(next),
      () => live && setState({ kind: 'failed', status: 0 }),
    );
    return () => {
      live = false;
    };
    // the language changes only the words, not the link's state: no new probe for it
  }, [token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(undefined);
    const answer = await checkPassword(token, password, language).catch(() => ({ ok: false as const, wrong: false, status: 0 }));
    if (answer.ok) {
      setState(answer.state);
      return;
    }
    if (answer.wrong) setRefusal(t('wrongPassword'));
    else if (answer.status === 429) setRefusal(t('tooMany'));
    else setState(refusalState(answer.status, 'message' in answer ? answer.message : undefined));
  };

  return (
    <main className="share-page">
      <header className="share-header">
        <h1>{t('title')}</h1>
        <label htmlFor="share-language">{t('language')}</label>
        <select id="share-language" value={language} onChange={(event) => onLanguage(event.target.value as Language)}>
          <option value="en">English</option>
          <option value="tr">Türkçe</option>
        </select>
      </header>
      {state.kind === 'busy' ? <p aria-busy="true">{t('checking')}</p> : null}
      {state.kind === 'ready' ? (
        <section className="share-card" aria-labelledby="share-file-name">
          <dl>
            <dt>{t('file')}</dt>
            <dd id="share-file-name">{state.name ?? '—'}</dd>
            {state.size !== undefined ? (
              <>
                <dt>{t('size')}</dt>
                <dd>{formatBytes(state.size, language)}</dd>
              </>
            ) : null}
          </dl>
          <a className="button primary" href={state.href} download={state.name ?? true}>
            {t('download')}
          </a>
        </section>
      ) : null}
      {state.kind === 'password' ? (
        <form className="share-card" onSubmit={(event) => void submit(event)}>
          <p>{t('passwordNeeded')}</p>
          <label htmlFor="share-password">{t('password')}</label>
          <input
            id="share-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <button type="submit" className="primary">
            {t('open')}
          </button>
          {refusal ? <p role="alert">{refusal}</p> : null}
        </form>
      ) : null}
      {state.kind === 'gone' ? <p role="alert">{t('gone')}</p> : null}
      {state.kind === 'unknown' ? <p role="alert">{t('unknown')}</p> : null}
      {state.kind === 'failed' ? <p role="alert">{state.message ?? t('failed', { status: state.status })}</p> : null}
    </main>
  );
}
