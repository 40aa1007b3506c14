/** What the access sections share: the role catalogue, a role's readable name, a write's outcome, a reason a box is disabled. */
import { useContext, useMemo } from 'react';
import { useManifest } from '../../resources/manifest.tsx';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { accessMessages } from './messages.ts';
import { nameOfCode, roleCatalogue, type CatalogueRole } from '@platform/contracts/console/role-catalogue.ts';
import type { Write } from './use-write.ts';

export function useCatalogue(): CatalogueRole[] {
  const { resources } = useManifest();
  return useMemo(() => roleCatalogue(resources), [resources]);
}

/** `name(code)`: the role's readable name in the console's language. */
export function useRoleName(): (code: string, fallback?: string) => string {
  const catalogue = useCatalogue();
  const language = useContext(LanguageContext);
  return (code, fallback) => nameOfCode(catalogue, code, language, fallback);
}

/**
 * Why the user may not do something that needs `codes`: "it needs the role Group members — write",
 * naming the ones the user lacks; undefined when it holds them all.
 */
export function useMissing(): (codes: readonly string[], key?: 'needs' | 'cannotRead') => string | undefined {
  const { can } = useAccess();
  const t = useT(accessMessages);
  const name = useRoleName();
  return (codes, key = 'needs') => {
    const missing = codes.filter((code) => !can(code));
    return missing.length === 0 ? undefined : t(key, { roles: missing.map((code) => `“${name(code)}”`).join(', ') });
  };
}

/** The message after a write, or the platform's refusal. */
export function WriteOutcome({ write }: { write: Write }) {
  return (
    <>
      <p role="status" className="access-status">
        {write.done ?? ''}
      </p>
      <ErrorAlert error={write.error} />
    </>
  );
}

/** The reasons the boxes are disabled, each once, referred to by the boxes' aria-describedby. */
export function Reasons({ id, reasons }: { id: string; reasons: readonly (string | undefined)[] }) {
  const shown = [...new Set(reasons.filter((reason): reason is string => reason !== undefined))];
  if (shown.length === 0) return null;
  return (
    <div id={id} className="access-reasons">
      {shown.map((reason) => (
        <p key={reason}>{reason}</p>
      ))}
    </div>
  );
}
