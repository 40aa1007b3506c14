import { ApiError } from '../shell/api.ts';

/** The platform's own message of an error (already in the chosen language), its code, and the refId of a 5xx. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : undefined;
  const refId = error instanceof ApiError ? error.refId : undefined;
  return (
    <p role="alert" className="error-alert">
      {message}
      {code ? <span className="error-code"> ({code})</span> : null}
      {refId ? <span className="error-code"> refId {refId}</span> : null}
    </p>
  );
}
