/**
 * What a program granted the network reads besides the system: name resolution's configuration and the TLS roots
 * (`/etc/ssl/certs` links into `/usr/share/ca-certificates`). Bound read-only by bubblewrap where they exist and
 * readable under Landlock, for that run only; a run without the grant sees none of them.
 */
export const networkReadPaths = [
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/nsswitch.conf',
  '/etc/gai.conf',
  '/etc/services',
  '/etc/protocols',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/usr/share/ca-certificates',
] as const
