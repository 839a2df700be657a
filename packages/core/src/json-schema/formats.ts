import { domainToUnicode } from 'node:url'

/** Checkers for the formats asserted under `assertFormats: true`; every other format stays an annotation. */
export type FormatChecker = (text: string) => boolean

const DAYS_IN_MONTH = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
function isDate(text: string): boolean {
  const match = DATE.exec(text)
  if (match === null) return false
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (month < 1 || month > 12 || day < 1) return false
  return day <= (month === 2 && !isLeapYear(year) ? 28 : DAYS_IN_MONTH[month]!)
}

const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i
function isTime(text: string): boolean {
  const match = TIME.exec(text)
  if (match === null) return false
  const hour = Number(match[1])
  const minute = Number(match[2])
  const second = Number(match[3])
  const sign = match[4] === '-' ? -1 : 1
  const offsetHour = Number(match[5] ?? 0)
  const offsetMinute = Number(match[6] ?? 0)
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false
  if (second < 60) return true
  // A leap second is only valid at 23:59:60 UTC.
  const utcMinutes = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440
  return utcMinutes === 23 * 60 + 59
}

function isDateTime(text: string): boolean {
  const separator = text.search(/t/i)
  return separator === 10 && isDate(text.slice(0, 10)) && isTime(text.slice(11))
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
function isIpv4(text: string): boolean {
  return IPV4.test(text)
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/i
function isIpv6(text: string): boolean {
  let address = text
  let groupsWanted = 8
  const lastColon = address.lastIndexOf(':')
  if (address.includes('.')) {
    if (!isIpv4(address.slice(lastColon + 1))) return false
    address = `${address.slice(0, lastColon + 1)}0`
    groupsWanted = 7
  }
  const halves = address.split('::')
  if (halves.length > 2) return false
  const parse = (half: string) => (half === '' ? [] : half.split(':'))
  const head = parse(halves[0]!)
  const tail = halves.length === 2 ? parse(halves[1]!) : []
  const groups = [...head, ...tail]
  if (!groups.every((group) => HEX_GROUP.test(group))) return false
  return halves.length === 2 ? groups.length < groupsWanted : groups.length === groupsWanted
}

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

/** RFC 1123 labels; an `xn--` label must decode as Punycode (IDNA contextual rules are not checked). */
function isHostLabel(label: string): boolean {
  if (!HOST_LABEL.test(label)) return false
  if (!/^xn--/i.test(label)) return label.slice(2, 4) !== '--'
  const decoded = domainToUnicode(label)
  return decoded !== '' && decoded !== label.toLowerCase() && decoded.slice(2, 4) !== '--'
}

function isHostname(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false
  return text.split('.').every(isHostLabel)
}

const EMAIL_LOCAL = /^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*|"(?:[^"\\]|\\.)*")$/i
function isEmail(text: string): boolean {
  const at = text.lastIndexOf('@')
  if (at <= 0) return false
  const domain = text.slice(at + 1)
  if (!EMAIL_LOCAL.test(text.slice(0, at))) return false
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1)
    return /^ipv6:/i.test(literal) ? isIpv6(literal.slice(5)) : isIpv4(literal)
  }
  return isHostname(domain)
}

const URI_CHAR = String.raw`(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})`
const URI = new RegExp(
  String.raw`^[a-z][a-z0-9+.-]*:(?:\/\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(\[[^\]]*\]|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/${URI_CHAR}*)*|(?!\/\/)${URI_CHAR}*(?:\/${URI_CHAR}*)*)(?:\?(?:${URI_CHAR}|[/?])*)?(?:#(?:${URI_CHAR}|[/?])*)?$`,
  'i',
)
function isUri(text: string): boolean {
  const match = URI.exec(text)
  if (match === null) return false
  const host = match[1]
  return host === undefined || !host.startsWith('[') || isIpv6(host.slice(1, -1))
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function isRegex(text: string): boolean {
  try {
    new RegExp(text, 'u')
    return true
  } catch {
    return false
  }
}

export const formatCheckers: Readonly<Record<string, FormatChecker>> = {
  'date-time': isDateTime,
  date: isDate,
  time: isTime,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uri: isUri,
  uuid: (text) => UUID.test(text),
  regex: isRegex,
}
