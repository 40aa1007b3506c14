/** Labelled facts of a file (its details, how its text was read) as a definition list, the empty ones left out. */
export function FactList({ facts }: { facts: readonly (readonly [string, string])[] }) {
  return (
    <dl className="doc-details">
      {facts
        .filter(([, value]) => value !== '')
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
