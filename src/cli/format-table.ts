/** A plain text table: columns padded to their widest cell, long cells cut with an ellipsis. */
export function formatTable(headers: string[], rows: string[][], maxCell = 60): string {
  const cut = (cell: string) => {
    const oneLine = cell.replace(/\s+/g, ' ');
    return oneLine.length > maxCell ? `${oneLine.slice(0, maxCell - 1)}…` : oneLine;
  };
  const cells = [headers, ...rows].map((row) => row.map(cut));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
