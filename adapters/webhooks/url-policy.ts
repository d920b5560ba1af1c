import { isIP } from 'node:net';

// Where webhooks may go (docs/adr/0033): https only, never a private, loopback, link-local or
// otherwise internal address (a partner must not make the server call into its own network).
// `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=true, for tests and local receivers) lifts both.

const v4 = (ip: string) => ip.split('.').map(Number) as [number, number, number, number];

/** True for an address no webhook may reach: loopback, private, link-local, CGNAT, multicast, unspecified. */
export const isInternalAddress = (address: string): boolean => {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(ip) === 4) {
    const [a, b] = v4(ip);
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  if (isIP(ip) === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
    if (mapped) return isInternalAddress(mapped[1]!);
    return ip === '::' || ip === '::1' || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || ip.startsWith('ff');
  }
  return false;
};

/** Why `url` may not receive webhooks, or undefined. The host's resolved addresses are checked again before each POST. */
export const webhookUrlRefusal =
  (allowPrivate: boolean) =>
  (url: string): string | undefined => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return 'is not a URL';
    }
    if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) return 'must be an https URL';
    if (u.username || u.password) return 'must not carry a user name or password';
    const host = u.hostname.toLowerCase();
    if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || isInternalAddress(host))) return 'must not point at a private or loopback address';
    return undefined;
  };
