import { useT, defineMessages } from '../shell/i18n.tsx';
import './skeleton.css';

const messages = defineMessages({ en: { loading: 'Loading…' }, tr: { loading: 'Yükleniyor…' } });

/**
 * Grey bars in the shape of what is coming (a record's sections of label and value, a form's rows,
 * a table's lines) while it loads, instead of a blank page: the region is `aria-busy`, a status
 * says "Loading…" to screen readers, and the bars themselves are hidden from them.
 */
export function Skeleton({ shape, sections = 2, rows = 4 }: { shape: 'record' | 'form' | 'rows'; sections?: number; rows?: number }) {
  const t = useT(messages);
  const groups = shape === 'rows' ? 1 : sections;
  return (
    <div className={`skeleton skeleton-${shape}`} aria-busy="true" data-testid="skeleton">
      <span role="status" className="visually-hidden">
        {t('loading')}
      </span>
      {Array.from({ length: groups }, (_, group) => (
        <div key={group} className="skeleton-group" aria-hidden="true">
          {shape === 'rows' ? null : <span className="skeleton-bar skeleton-title" />}
          {Array.from({ length: rows }, (_, row) => (
            <span key={row} className="skeleton-item">
              {shape === 'rows' ? null : <span className="skeleton-bar skeleton-label" />}
              <span className={`skeleton-bar ${shape === 'form' ? 'skeleton-input' : 'skeleton-value'}`} />
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}
