import { useContext } from 'react';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { ApiError } from '../shell/api.ts';
import { LanguageContext } from '../shell/i18n.tsx';
import { clerkError } from './error-words.ts';

/**
 * A refusal met on a page of `resource`, in a clerk's words (error-words.ts), with the platform's
 * code after it for whoever is asked to help.
 */
export function ResourceError({ error, resource }: { error: unknown; resource: ConsoleResource }) {
  const language = useContext(LanguageContext);
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <p role="alert" className="error-alert">
      {clerkError(error, resource, language).text}
      {code ? <span className="error-code"> ({code})</span> : null}
    </p>
  );
}
