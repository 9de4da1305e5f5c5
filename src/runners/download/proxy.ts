// Which proxy variable of the environment names a proxy for a URL, as curl and wget read them
// (https_proxy for https, http_proxy for http, all_proxy for both, lower case first; no_proxy's
// hosts and domains excluded): the download runner says when one is set, since Node's fetch does
// not use it (docs/download.md, "Proxies"). Pure.

export function proxyVariable(url: string, env: NodeJS.ProcessEnv): string | undefined {
  const { protocol, hostname } = new URL(url);
  const scheme = protocol === 'https:' ? 'https' : 'http';
  const name = [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY'].find((n) => (env[n] ?? '') !== '');
  if (name === undefined) return undefined;
  const excluded = (env.no_proxy ?? env.NO_PROXY ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase().replace(/^\*?\./, '.'))
    .filter((h) => h !== '');
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (excluded.some((h) => h === '*' || host === h.replace(/^\./, '') || (h.startsWith('.') && host.endsWith(h)) || host.endsWith(`.${h}`))) return undefined;
  return name;
}
