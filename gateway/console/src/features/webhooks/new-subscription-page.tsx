import { useState } from 'react';
import { Link } from 'react-router';
import type { WebhookSubscription } from '@platform/client/schema.d.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { webhookMessages } from './messages.ts';
import { SecretOnce } from './secret-once.tsx';
import './webhooks.css';

/**
 * Creates a webhook subscription and shows its signing secret once: the create answer is the only
 * read that carries it (docs/interface.md#webhooks), and the generic create page, which knows no
 * entity, would move on to the record page where `secret` is null. The tenant is the user's current
 * one (a super user may name another). Errors show the platform's message (a bad url names it).
 */
export function NewSubscriptionPage() {
  const t = useT(webhookMessages);
  const { me, can } = useAccess();
  const [crProcessId, setCrProcessId] = useState(String(me.crProcessId));
  const [url, setUrl] = useState('');
  const [eventTypes, setEventTypes] = useState('*');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<WebhookSubscription>();
  const [secret, setSecret] = useState<string>();

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const body = {
        crProcessId: Number(crProcessId),
        url: url.trim(),
        eventTypes: eventTypes
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
        ...(description.trim() === '' ? {} : { description: description.trim() }),
      };
      const subscription = await answer(platform.POST('/api/webhook-subscription', { body }));
      setCreated(subscription);
      setSecret(subscription.secret ?? '');
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  if (!can('webhook-subscription:write')) return null;
  return (
    <section className="webhook-new">
      <h1 tabIndex={-1}>{t('newTitle')}</h1>
      <p>{t('intro')}</p>
      {created ? (
        <>
          <p role="status">{t('created', { id: created.id })}</p>
          <p>
            <Link to={`/webhook-subscription/${created.id}`}>{t('open', { id: created.id })}</Link>{' '}
            <button
              type="button"
              onClick={() => {
                setCreated(undefined);
                setUrl('');
                setDescription('');
              }}
            >
              {t('another')}
            </button>
          </p>
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          {me.superUser && (
            <p>
              <label>
                {t('tenant')}
                <br />
                <input type="number" min={1} required value={crProcessId} onChange={(event) => setCrProcessId(event.target.value)} />
              </label>
            </p>
          )}
          <p>
            <label>
              {t('url')}
              <br />
              <input type="url" required maxLength={2000} size={60} value={url} onChange={(event) => setUrl(event.target.value)} />
            </label>
          </p>
          <p>
            <label>
              {t('eventTypes')}
              <br />
              <textarea required rows={4} cols={40} value={eventTypes} onChange={(event) => setEventTypes(event.target.value)} />
            </label>
          </p>
          <p>
            <label>
              {t('description')}
              <br />
              <input maxLength={1000} size={60} value={description} onChange={(event) => setDescription(event.target.value)} />
            </label>
          </p>
          {error && <p role="alert">{error}</p>}
          <p>
            <button type="submit" className="primary" disabled={busy}>
              {busy ? t('working') : t('create')}
            </button>
          </p>
        </form>
      )}
      <SecretOnce secret={secret} onClose={() => setSecret(undefined)} />
    </section>
  );
}
