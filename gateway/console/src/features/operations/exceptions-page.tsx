import { useContext, useState } from 'react';
import type { ExceptionEntry, operations } from '@platform/client/schema.d.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { ExceptionDetails } from './exception-details.tsx';
import { formatInstant, localToIso } from './format.ts';
import { operationsMessages } from './messages.ts';
import { OperatorTable } from './operator-table.tsx';
import './operations.css';
import { DateInput } from '../../ui/date-input.tsx';

const SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERVICES = ['gateway', 'core', 'bpm', 'dms'] as const;

interface Filter {
  service: string;
  errorCode: string;
  userCode: string;
  crProcessId: string;
  from: string;
  to: string;
}

const EMPTY: Filter = { service: '', errorCode: '', userCode: '', crProcessId: '', from: '', to: '' };

/** The list's filter as the API document gives it. */
type ExceptionFilter = NonNullable<operations['exceptionPage']['requestBody']['content']['application/json']['filter']>;

/** The filter as the exception list takes it: only the fields filled in. */
function filterBody(filter: Filter): ExceptionFilter {
  const body: ExceptionFilter = {};
  for (const name of ['service', 'errorCode', 'userCode'] as const) if (filter[name].trim()) body[name] = filter[name].trim();
  if (filter.crProcessId.trim()) body.crProcessId = Number(filter.crProcessId);
  const from = localToIso(filter.from);
  const to = localToIso(filter.to);
  if (from) body.createdAtFrom = from;
  if (to) body.createdAtTo = to;
  return body;
}

/**
 * The exception log (a super user's page over the operators' paths): the entry a 5xx body's refId
 * names (`GET /api/logs/exceptions/{refId}`), and the entries newest first (`POST
 * /api/logs/exceptions/list`) filtered by service, error code, user, tenant and time.
 */
export function ExceptionsPage() {
  const t = useT(operationsMessages);
  const language = useContext(LanguageContext);
  const [refId, setRefId] = useState('');
  const [found, setFound] = useState<ExceptionEntry>();
  const [findError, setFindError] = useState<string>();
  const [draft, setDraft] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [page, setPage] = useState(0);
  const entries = useLoad(
    (signal) => answer(platform.POST('/api/logs/exceptions/list', { body: { page, size: SIZE, filter: filterBody(filter) }, signal })),
    [page, filter],
  );

  const find = async (wanted: string) => {
    setFound(undefined);
    setFindError(undefined);
    if (!UUID.test(wanted)) {
      setFindError(t('refIdInvalid'));
      return;
    }
    try {
      setFound(await answer(platform.GET('/api/logs/exceptions/{refId}', { params: { path: { refId: wanted } } })));
    } catch (failure) {
      setFindError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };

  const field = (name: keyof Filter, label: string, type = 'text') => (
    <label>
      {label}
      <input type={type} value={draft[name]} onChange={(event) => setDraft({ ...draft, [name]: event.target.value })} />
    </label>
  );

  return (
    <section className="ops-page">
      <h1 tabIndex={-1}>{t('exceptionsTitle')}</h1>
      <form
        className="ops-filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void find(refId.trim());
        }}
      >
        <label>
          {t('refId')}
          <input value={refId} size={38} spellCheck={false} onChange={(event) => setRefId(event.target.value)} />
        </label>
        <button type="submit" className="primary">
          {t('find')}
        </button>
      </form>
      {findError && <p role="alert">{findError}</p>}
      {found && <ExceptionDetails entry={found} />}

      <form
        className="ops-filters"
        aria-label={t('filters')}
        onSubmit={(event) => {
          event.preventDefault();
          setPage(0);
          setFilter(draft);
        }}
      >
        <label>
          {t('service')}
          <select value={draft.service} onChange={(event) => setDraft({ ...draft, service: event.target.value })}>
            <option value="">{t('anyService')}</option>
            {SERVICES.map((service) => (
              <option key={service} value={service}>
                {service}
              </option>
            ))}
          </select>
        </label>
        {field('errorCode', t('errorCode'))}
        {field('userCode', t('userCode'))}
        {field('crProcessId', t('crProcessId'), 'number')}
        {(['from', 'to'] as const).map((end) => (
          <label key={end}>
            {t(end)}
            <DateInput value={draft[end]} onChange={(value) => setDraft({ ...draft, [end]: value })} withTime />
          </label>
        ))}
        <button type="submit">{t('search')}</button>
      </form>
      <OperatorTable
        caption={t('exceptionsTitle')}
        rows={entries}
        rowKey={(entry) => entry.refId}
        onPage={setPage}
        columns={[
          { header: t('createdAt'), cell: (entry: ExceptionEntry) => formatInstant(entry.createdAt, language) },
          { header: t('service'), cell: (entry) => entry.service },
          { header: t('errorCode'), cell: (entry) => entry.errorCode },
          { header: t('method'), cell: (entry) => entry.method ?? '' },
          { header: t('path'), cell: (entry) => entry.path ?? '' },
          { header: t('userCode'), cell: (entry) => entry.userCode ?? '' },
          {
            header: t('refId'),
            cell: (entry) => (
              <button
                type="button"
                aria-label={t('show', { refId: entry.refId })}
                onClick={() => {
                  setRefId(entry.refId);
                  void find(entry.refId);
                }}
              >
                {entry.refId.slice(0, 8)}…
              </button>
            ),
          },
        ]}
      />
    </section>
  );
}
