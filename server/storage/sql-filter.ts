/** A WHERE clause: a base condition plus optional "any of these values" filters, with its bound values in order. */
export function sqlFilter(base: string, baseValues: string[]) {
  const clauses = [base];
  const values = [...baseValues];
  const placeholders = (list: string[]) => list.map(() => "?").join(", ");
  return {
    /** `column IN (…)` when the filter is given; an absent filter (null) matches everything. */
    anyOf(column: string, list: string[] | null) {
      if (list === null) return;
      clauses.push(`${column} IN (${placeholders(list)})`);
      values.push(...list);
    },
    /** Rows whose key appears in another table with one of the values (an event's sources, a notice's series). */
    anyLinked(column: string, subquery: (placeholders: string) => string, list: string[] | null) {
      if (list === null) return;
      clauses.push(`${column} IN (${subquery(placeholders(list))})`);
      values.push(...list);
    },
    where: () => clauses.join(" AND "),
    values: () => values,
  };
}
