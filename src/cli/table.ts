/**
 * How the operator tools print what they list: a table whose columns line up, and times as the
 * tables and messages show them. One place, so that `apikey list` and `sandboxes list` read alike.
 */

/** `rows` (the header first) as lines whose columns line up, two spaces apart, with no trailing spaces. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  // Counted in code points, not UTF-16 units, so that a name with an emoji does not shift its row.
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => [...row[column]].length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** A time to the second in UTC (`2026-05-01T12:00:00Z`), or `absent` for none. */
export function formatDate(date: Date | null, absent = ''): string {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : absent;
}
