/**
 * A small path matcher for the route table, so the table lives in `domain` without a router.
 * Patterns use `:name` for a segment and `:name?` for an optional trailing segment.
 */
export type Params = Record<string, string>;

export function matchPath(pattern: string, pathname: string): Params | null {
  const pat = split(pattern);
  const parts = split(pathname);
  const params: Params = {};
  for (let i = 0; i < pat.length; i++) {
    const p = pat[i]!;
    const part = parts[i];
    if (p.startsWith(':')) {
      const optional = p.endsWith('?');
      const name = p.slice(1, optional ? -1 : undefined);
      if (part === undefined) {
        if (optional) continue;
        return null;
      }
      params[name] = decodeURIComponent(part);
    } else if (p !== part) {
      return null;
    }
  }
  return parts.length <= pat.length ? params : null;
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}
