/**
 * A file's share links (dms-share-link with filter.fileId): each one's state, expiry, password and
 * downloads used; "copy link" copies the console's public page for its token (sharePageUrl, which
 * asks for the password and names the file); deactivate/activate and delete as the roles allow;
 * and a form for a new one (password, expiry and maximum downloads all optional).
 */
import { useContext, useState, type FormEvent } from 'react';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { ConfirmDialog } from './confirm.dialog.tsx';
import { createShareLink, deleteShareLink, listShareLinks, setShareLinkActive, sharePageUrl, type DmsShareLink, type NewShareLink } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { formatInstant } from './format.ts';
import { useLoad } from '../../shell/use-load.ts';
import { DateInput } from '../../ui/date-input.tsx';

export function ShareLinks({ crProcessId, fileId }: { crProcessId: number; fileId: number }) {
  const t = useT(documentsMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const links = useLoad((signal) => listShareLinks(crProcessId, { size: 100, filter: { fileId } }, signal), [crProcessId, fileId]);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [deleting, setDeleting] = useState<DmsShareLink>();

  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
      setError(undefined);
      links.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  const copy = async (link: DmsShareLink) => {
    const url = sharePageUrl(link.token);
    try {
      await navigator.clipboard.writeText(url);
      setNotice(t('copied'));
    } catch {
      setNotice(t('copyFailed', { url }));
    }
  };

  return (
    <section aria-labelledby="doc-share-heading" className="doc-share">
      <h2 id="doc-share-heading">{t('shareLinks')}</h2>
      {links.error ? <p role="alert">{links.error}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <p role="status" className="doc-notice">
        {notice}
      </p>
      {links.value?.empty ? <p>{t('noShareLinks')}</p> : null}
      {links.value && !links.value.empty ? (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('link')}</th>
              <th scope="col">{t('state')}</th>
              <th scope="col">{t('expiresAt')}</th>
              <th scope="col">{t('password')}</th>
              <th scope="col">{t('downloads')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {links.value.content.map((link) => (
              <tr key={link.id}>
                <td>
                  <code className="doc-token">{sharePageUrl(link.token)}</code>
                </td>
                <td>{link.status ? t('active') : t('inactive')}</td>
                <td>{link.expiresAt ? formatInstant(link.expiresAt, language) : t('never')}</td>
                <td>{link.hasPassword ? t('yes') : t('no')}</td>
                <td>
                  {link.maxDownloads
                    ? t('downloadsUsed', { used: link.downloadCount, max: link.maxDownloads })
                    : t('downloadsUnlimited', { used: link.downloadCount })}
                </td>
                <td className="doc-action-row">
                  <button type="button" onClick={() => void copy(link)} aria-label={`${t('copyLink')} #${link.id}`}>
                    {t('copyLink')}
                  </button>
                  {access.can('dms-share-link:write') ? (
                    <button type="button" onClick={() => void act(() => setShareLinkActive(link, !link.status))}>
                      {link.status ? t('deactivate') : t('activate')}
                    </button>
                  ) : null}
                  {access.can('dms-share-link:delete') ? (
                    <button type="button" className="danger" onClick={() => setDeleting(link)} aria-label={`${t('deleteShareLink')} #${link.id}`}>
                      {t('delete')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {access.can('dms-share-link:write') ? <NewShareLinkForm onCreate={(link) => act(() => createShareLink(crProcessId, fileId, link))} /> : null}
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('deleteShareLink')}
        question={deleting ? sharePageUrl(deleting.token) : ''}
        onConfirm={async () => {
          if (deleting) await deleteShareLink(deleting);
          links.reload();
        }}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  );
}

function NewShareLinkForm({ onCreate }: { onCreate: (link: NewShareLink) => Promise<void> }) {
  const t = useT(documentsMessages);
  const [password, setPassword] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [maxDownloads, setMaxDownloads] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await onCreate({
      ...(password ? { password } : {}),
      // the box holds the user's local time (ui/date-input.tsx): sent as the instant it names
      ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
      ...(maxDownloads ? { maxDownloads: Number(maxDownloads) } : {}),
    });
    setPassword('');
    setExpiresAt('');
    setMaxDownloads('');
  };

  return (
    <form className="doc-share-form" onSubmit={(event) => void submit(event)} aria-labelledby="doc-new-share-heading">
      <h3 id="doc-new-share-heading">{t('newShareLink')}</h3>
      <div className="doc-upload-fields">
        <label htmlFor="doc-share-password">{t('passwordOptional')}</label>
        <input
          id="doc-share-password"
          type="password"
          autoComplete="new-password"
          maxLength={72}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <label htmlFor="doc-share-expires">{t('expiresAt')}</label>
        <DateInput id="doc-share-expires" value={expiresAt} onChange={setExpiresAt} withTime />
        <label htmlFor="doc-share-max">{t('maxDownloads')}</label>
        <input id="doc-share-max" type="number" min={1} step={1} value={maxDownloads} onChange={(event) => setMaxDownloads(event.target.value)} />
      </div>
      <button type="submit" className="primary">
        {t('createShareLink')}
      </button>
    </form>
  );
}
