/**
 * Secrets a user puts in a URL (a password, `?token=...`) are for connecting
 * only: everything wsbench records or prints shows the URL with the password
 * and the value of every query parameter replaced by `***`
 * (`ws://admin:***@host/?token=***`). The user's URL is the only place the
 * values live; the clients get it, nothing else does.
 *
 * It works on the text, not on a parsed URL, so that it also redacts what a URL
 * parser refuses (a bad --target quoted in its error) and leaves everything
 * else of the URL exactly as the user wrote it.
 */

const REDACTED = '***';

/** Any scheme://... run of text up to a space, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** The URL with its password and the values of its query parameters replaced by `***`. */
export function redactUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/is.exec(url);
  if (!match) return url;
  const [, scheme, rest] = match as unknown as [string, string, string];
  // Where the authority ends. A password holding an unencoded "/", "?" or "#" makes the URL unparseable:
  // then everything up to the last "@" is taken as the user info, so the password is hidden all the same.
  let end = rest.search(/[/?#]/);
  if (end < 0) end = rest.length;
  const at = URL.canParse(url) ? rest.lastIndexOf('@', end) : rest.lastIndexOf('@');
  let text = rest;
  if (at >= 0) {
    const userInfo = rest.slice(0, at);
    const colon = userInfo.indexOf(':');
    if (colon >= 0 && colon < userInfo.length - 1) text = `${userInfo.slice(0, colon + 1)}${REDACTED}${rest.slice(at)}`;
  }
  return scheme + redactQuery(text);
}

/** Every URL in `text` redacted (messages, command lines, argv words such as `name=ws://...`). */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, redactUrl);
}

/** `?a=1&b=2#f` -> `?a=***&b=***#f`: keys stay (they say what was given), values go. */
function redactQuery(text: string): string {
  const q = text.indexOf('?');
  if (q < 0) return text;
  const hash = text.indexOf('#', q);
  const query = text.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 || eq === pair.length - 1 ? pair : `${pair.slice(0, eq + 1)}${REDACTED}`;
    })
    .join('&');
  return `${text.slice(0, q + 1)}${redacted}${hash < 0 ? '' : text.slice(hash)}`;
}
