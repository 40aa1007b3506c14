/**
 * A browser without a screen, for single sign-on through the API: fetch with its cookies kept per
 * origin, redirects followed by hand (each answer seen), and the forms of oidc-provider's
 * development interactions (login by account id, then consent) submitted.
 */
export class SsoBrowser {
  readonly #jar = new Map<string, Map<string, string>>();
  /** Every answer seen, in order: status, URL and how long it took (ms). */
  readonly trail: { status: number; url: string; ms: number }[] = [];

  cookie(origin: string, name: string): string | undefined {
    return this.#jar.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    let cookies = this.#jar.get(origin);
    if (!cookies) this.#jar.set(origin, (cookies = new Map()));
    cookies.set(name, value);
  }

  /** One request with this browser's cookies for the URL's origin; its Set-Cookie lines kept. */
  async request(url: string, init: { method?: string; body?: string; contentType?: string } = {}): Promise<Response> {
    const { origin } = new URL(url);
    const cookies = [...(this.#jar.get(origin) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers: Record<string, string> = {};
    if (cookies) headers.cookie = cookies;
    if (init.contentType) headers['content-type'] = init.contentType;
    const started = performance.now();
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.#jar.get(origin)?.delete(name);
      else this.setCookie(origin, name, value);
    }
    this.trail.push({ status: res.status, url, ms: performance.now() - started });
    return res;
  }

  /**
   * Follows redirects from `url` and submits the provider's forms (login as `accountId`, then
   * consent) until an answer that is neither: that answer, with the URL it came from. Stops early
   * (without requesting it) at a URL for which `stopAt` is true.
   */
  async walk(url: string, accountId: string, stopAt: (url: string) => boolean = () => false): Promise<{ res: Response | undefined; url: string }> {
    let next = url;
    for (let hop = 0; hop < 20; hop++) {
      if (stopAt(next)) return { res: undefined, url: next };
      const res = await this.request(next);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        next = new URL(location, next).href;
        continue;
      }
      const type = res.headers.get('content-type') ?? '';
      if (res.status === 200 && type.includes('text/html')) {
        const html = await res.text();
        const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
        if (form?.[1] && form[2] !== undefined) {
          const fields = new URLSearchParams();
          for (const input of form[2].matchAll(/<input[^>]*>/gi)) {
            const name = /name="([^"]+)"/.exec(input[0])?.[1];
            if (!name) continue;
            const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
            fields.set(name, name === 'login' ? accountId : name === 'password' ? 'any-password' : value);
          }
          const posted = await this.request(new URL(form[1], next).href, {
            method: 'POST',
            body: fields.toString(),
            contentType: 'application/x-www-form-urlencoded',
          });
          const to = posted.headers.get('location');
          if (!to) return { res: posted, url: next };
          next = new URL(to, next).href;
          continue;
        }
      }
      return { res, url: next };
    }
    throw new Error(`more than 20 hops from ${url}`);
  }
}
