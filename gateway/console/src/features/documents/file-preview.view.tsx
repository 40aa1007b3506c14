/**
 * A file's inline preview from a signed `inline=true` URL: an <img> for raster images, an <iframe>
 * for a PDF (Chromium's viewer shows it although the answer carries `Content-Security-Policy:
 * sandbox`), with "open in a new tab" beside it for browsers that will not. Other types have none:
 * the service serves them as attachments whatever `inline` says.
 */
import { useT } from '../../shell/i18n.tsx';
import { downloadUrl, type DmsFile } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { fileLabel } from './format.ts';
import { useLoad } from '../../shell/use-load.ts';

/** The types the service shows inline and a page can embed (SVG is served as an attachment). */
function previewKind(mimeType: string | null): 'image' | 'pdf' | undefined {
  if (mimeType === null) return undefined;
  if (mimeType === 'application/pdf') return 'pdf';
  if (mimeType.startsWith('image/') && mimeType !== 'image/svg+xml') return 'image';
  return undefined;
}

export function FilePreview({ file }: { file: DmsFile }) {
  const t = useT(documentsMessages);
  const kind = previewKind(file.mimeType);
  const signed = useLoad((signal) => (kind ? downloadUrl(file.id, true, signal) : Promise.resolve(undefined)), [file.id, kind]);
  const title = t('previewOf', { name: fileLabel(file) });

  return (
    <section aria-labelledby="doc-preview-heading" className="doc-preview">
      <h2 id="doc-preview-heading">{t('preview')}</h2>
      {!kind ? <p>{t('noPreview')}</p> : null}
      {signed.error ? <p role="alert">{signed.error}</p> : null}
      {signed.value && kind === 'image' ? <img src={signed.value.url} alt={title} className="doc-preview-image" /> : null}
      {signed.value && kind === 'pdf' ? <iframe src={signed.value.url} title={title} className="doc-preview-pdf" /> : null}
      {signed.value ? (
        <p>
          <a href={signed.value.url} target="_blank" rel="noopener noreferrer">
            {t('openInNewTab')}
          </a>
        </p>
      ) : null}
    </section>
  );
}
