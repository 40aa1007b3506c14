/**
 * The figures behind a chart as a table only screen readers meet (`.visually-hidden`): a picture
 * of bars says nothing to them, its numbers do. Every chart of the console renders one.
 */
export interface ChartRow {
  label: string;
  /** The value as the reader should hear it (formatted, with its unit). */
  value: string;
}

export function ChartTable({
  caption,
  labelHeader,
  valueHeader,
  rows,
}: {
  caption: string;
  labelHeader: string;
  valueHeader: string;
  rows: readonly ChartRow[];
}) {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{labelHeader}</th>
          <th scope="col">{valueHeader}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
