// Follows an identity provider's redirects as a browser would (keeping its cookies) until it sends
// the browser back somewhere else: the service's callback.
export async function followProviderRedirects(issuer: string, start: URL): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    if (!url.href.startsWith(issuer)) return url;
    const res = await fetch(url, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [name, ...value] = pair!.split("=");
      jar.set(name!.trim(), value.join("="));
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`the provider answered ${res.status} without a redirect: ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error("too many redirects at the provider");
}
