/**
 * Where an audit is held, as its headers show it: "Site / Division / … / Unit". An area's full name
 * already starts with its site's name, which is not repeated.
 */
export function auditPlace(a: { site: { name: string }; site_node?: { full_name: string } | null }): string {
  const area = a.site_node?.full_name;
  if (!area) return a.site.name;
  const prefix = `${a.site.name} / `;
  return area.startsWith(prefix) ? area : `${prefix}${area}`;
}
