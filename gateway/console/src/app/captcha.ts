/**
 * reCAPTCHA v3 on the login page, only when the platform checks captchas (the manifest's
 * `login.captchaSiteKey`): Google's script is loaded once, and each login sends a fresh token.
 */
interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | undefined;

function loadCaptcha(siteKey: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const grecaptcha = window.grecaptcha;
      if (grecaptcha) grecaptcha.ready(() => resolve(grecaptcha));
      else reject(new Error('reCAPTCHA did not load'));
    };
    script.onerror = () => {
      loading = undefined;
      reject(new Error('reCAPTCHA did not load'));
    };
    document.head.append(script);
  });
  return loading;
}

/** Starts loading the script early (when the login page opens). */
export function preloadCaptcha(siteKey: string | undefined): void {
  if (siteKey) loadCaptcha(siteKey).catch(() => undefined);
}

/** A token for a login, or undefined when the platform checks none. */
export async function captchaToken(siteKey: string | undefined): Promise<string | undefined> {
  if (!siteKey) return undefined;
  const grecaptcha = await loadCaptcha(siteKey);
  return grecaptcha.execute(siteKey, { action: 'login' });
}
