import { BlockList, isIP } from 'node:net';

// Where webhooks may go (docs/adr/0033, 0037): https only, never a private, loopback, link-local or
// otherwise internal address (a partner must not make the server call into its own network).
// `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=true, for tests and local receivers) lifts both.
// The same test runs on the URL at create and update, and on every resolved address before each POST.

/** IPv4 ranges no webhook may reach (RFC 6890 special-purpose ranges that are not the public internet). */
const V4_REFUSED: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

/**
 * IPv6 ranges refused outright. Only global unicast (2000::/3) is let through, less its special blocks;
 * the forms that carry an IPv4 address (mapped, compatible, translated, NAT64, 6to4) are judged by that address.
 */
const V6_REFUSED: readonly (readonly [string, number])[] = [
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates into the operator's own network
  ['2001::', 23], // IETF protocol assignments, Teredo's 2001::/32 among them (it tunnels to any IPv4 address)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];

const v4Refused = new BlockList();
for (const [net, prefix] of V4_REFUSED) v4Refused.addSubnet(net, prefix, 'ipv4');
const v6Refused = new BlockList();
for (const [net, prefix] of V6_REFUSED) v6Refused.addSubnet(net, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** The eight 16-bit groups of an IPv6 address in any spelling (`::`, dotted tail, upper case). */
const hextets = (ip: string): number[] => {
  // The WHATWG URL parser spells an IPv6 address one way: lower-case hex, `::` compressed, no dotted tail.
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
};

const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 addresses an IPv6 address stands for, where it is one of the forms that embed one. */
const embeddedV4 = (h: number[]): string[] => {
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  const found: string[] = [];
  if (zeros(0, 5) && (h[5] === 0xffff || h[5] === 0)) found.push(dotted(h[6]!, h[7]!)); // ::ffff:a.b.c.d mapped, ::a.b.c.d compatible
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) found.push(dotted(h[6]!, h[7]!)); // ::ffff:0:a.b.c.d translated (SIIT)
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) found.push(dotted(h[6]!, h[7]!)); // 64:ff9b::a.b.c.d NAT64
  if (h[0] === 0x2002) found.push(dotted(h[1]!, h[2]!)); // 2002:aabb:ccdd:: 6to4
  return found;
};

/**
 * True for an address no webhook may reach: loopback, private, link-local (cloud metadata), CGNAT,
 * unique-local, multicast, broadcast, unspecified, documentation and reserved ranges, in IPv4 and
 * IPv6, and every IPv6 form carrying such an IPv4 address. A host name is not an address: false.
 */
export const isInternalAddress = (address: string): boolean => {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = isIP(ip);
  if (family === 4) return v4Refused.check(ip, 'ipv4');
  if (family !== 6) return false;
  if (ip.includes('%')) return true; // a zone (fe80::1%eth0) names a local interface
  let h: number[];
  try {
    h = hextets(ip);
  } catch {
    return true; // an address the URL parser cannot read is not one we can judge
  }
  const v4 = embeddedV4(h);
  if (v4.length > 0) return v4.some((a) => v4Refused.check(a, 'ipv4'));
  return !globalUnicast.check(ip, 'ipv6') || v6Refused.check(ip, 'ipv6');
};

/** Host names that only ever mean this machine or its own network (RFC 6761, 6762, 8375). */
const isLocalName = (host: string) =>
  host === 'localhost' || ['.localhost', '.internal', '.local', '.home.arpa'].some((suffix) => host.endsWith(suffix)) || host === 'home.arpa';

/** The refusal of a URL whose host is an internal address or a local name. */
export const INTERNAL_HOST_REFUSAL = 'must not point at a private or loopback address';

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
    // The URL parser has already rewritten every spelling of an address (2130706433, 0x7f.1, [::FFFF:127.0.0.1]) to one form.
    const host = u.hostname.toLowerCase().replace(/\.$/, '');
    if (!allowPrivate && (isLocalName(host) || isInternalAddress(host))) return INTERNAL_HOST_REFUSAL;
    return undefined;
  };
