import { heapBoundPrelude } from './heap-bound-prelude.js'

/**
 * Runs inside the isolate before the program, as a function expression given the host channel
 * (`send`, a copying callback that takes one string). It removes what lets memory escape the heap
 * limit, captures the built-ins it needs before the program can poison them, and returns
 * `{ deliver, start }`. Only JSON text crosses the boundary in either direction.
 */
export const sandboxPrelude = String.raw`(function prelude(send) {
  'use strict'
  const global = globalThis
  const stringify = JSON.stringify
  const parse = JSON.parse
  const freeze = Object.freeze
  const defineProperty = Object.defineProperty
  const create = Object.create
  const isArray = Array.isArray
  const PromiseCtor = Promise
  const ErrorCtor = Error
  const TypeErrorCtor = TypeError
  const StringCtor = String

${heapBoundPrelude}
  let limits = { maxOutputBytes: 0, maxResultBytes: 0, maxSubCalls: 0, maxInputBytes: 0, maxArgumentBytes: 0, maxPendingTimers: 0 }
  let outputBytes = 0
  let inputBytes = 0
  let subCalls = 0
  let stopped = false
  const pending = new Map()
  const timers = new Map()
  let nextTimer = 0

  function utf8Length(text) {
    let bytes = 0
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index)
      if (code < 0x80) bytes += 1
      else if (code < 0x800) bytes += 2
      else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) { bytes += 4; index++ }
      else bytes += 3
    }
    return bytes
  }

  function post(message) { send(stringify(message)) }

  function fail(kind, message) {
    if (stopped) return
    stopped = true
    post({ t: 'fail', kind, message })
  }

  class ToolCallError extends ErrorCtor {
    constructor(info) {
      super(StringCtor(info.message))
      this.name = 'ToolCallError'
      this.toolName = StringCtor(info.toolName)
      this.code = StringCtor(info.code)
      this.callId = StringCtor(info.callId)
    }
  }

  // Arguments must survive JSON unchanged: no functions, symbols, bigints, holes or non-finite numbers.
  function losslessJson(value) {
    return stringify(value === undefined ? {} : value, function (key, inner) {
      const kind = typeof inner
      if (kind === 'function' || kind === 'symbol' || kind === 'bigint' || (kind === 'undefined' && isArray(this))) {
        throw new TypeErrorCtor('tool arguments must be JSON: ' + kind + ' at ' + (key === '' ? 'the root' : stringify(key)))
      }
      if (kind === 'number' && !Number.isFinite(inner)) {
        throw new TypeErrorCtor('tool arguments must be JSON: ' + StringCtor(inner) + ' at ' + stringify(key))
      }
      return inner
    })
  }

  function callTool(name, args) {
    if (stopped) return new PromiseCtor(() => {})
    let text
    try { text = losslessJson(args) } catch (error) { return PromiseCtor.reject(error) }
    if (utf8Length(text) > limits.maxArgumentBytes) {
      return PromiseCtor.reject(new RangeError('tool arguments are larger than ' + limits.maxArgumentBytes + ' bytes'))
    }
    subCalls++
    if (subCalls > limits.maxSubCalls) {
      fail('sub-call-limit', 'more than ' + limits.maxSubCalls + ' tool calls')
      return new PromiseCtor(() => {})
    }
    const id = subCalls
    return new PromiseCtor((resolve, reject) => {
      pending.set(id, { resolve, reject })
      send('{"t":"call","id":' + id + ',"name":' + stringify(name) + ',"args":' + text + '}')
    })
  }

  function render(value) {
    if (typeof value === 'string') return value
    if (value instanceof ErrorCtor) return (value.name || 'Error') + ': ' + value.message
    if (value === undefined) return 'undefined'
    if (typeof value === 'function') return '[function ' + (value.name || 'anonymous') + ']'
    if (typeof value === 'bigint') return StringCtor(value) + 'n'
    if (typeof value === 'symbol') return value.toString()
    try { return stringify(value) ?? StringCtor(value) } catch { return StringCtor(value) }
  }

  function print(values) {
    if (stopped) return
    let line = ''
    for (let index = 0; index < values.length; index++) line += (index === 0 ? '' : ' ') + render(values[index])
    outputBytes += utf8Length(line) + 1
    if (outputBytes > limits.maxOutputBytes) {
      fail('output-limit', 'printed more than ' + limits.maxOutputBytes + ' bytes')
      throw new ErrorCtor('output limit reached')
    }
    post({ t: 'print', text: line })
  }

  const consoleObject = create(null)
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    consoleObject[level] = function (...values) { print(values) }
  }
  freeze(consoleObject)

  function setTimeoutShim(callback, ms, ...args) {
    if (typeof callback !== 'function') throw new TypeErrorCtor('setTimeout needs a function')
    if (timers.size >= limits.maxPendingTimers) throw new RangeError('more than ' + limits.maxPendingTimers + ' pending timers')
    const id = ++nextTimer
    timers.set(id, () => callback(...args))
    post({ t: 'timer', id, ms: Number(ms) > 0 ? Number(ms) : 0 })
    return id
  }
  function clearTimeoutShim(id) {
    if (timers.delete(id)) post({ t: 'clear', id })
  }

  function describeError(error) {
    if (error instanceof ErrorCtor) {
      const frame = /program\.ts:(\d+):(\d+)/.exec(StringCtor(error.stack))
      const at = frame === null ? '' : ' (line ' + frame[1] + ', column ' + frame[2] + ')'
      return (error.name || 'Error') + ': ' + error.message + at
    }
    return 'thrown value ' + render(error)
  }

  function deliver(text) {
    if (stopped) return
    const message = parse(text)
    if (message.t === 'timer') {
      const run = timers.get(message.id)
      timers.delete(message.id)
      if (run !== undefined) run()
      return
    }
    const waiter = pending.get(message.id)
    if (waiter === undefined) return
    pending.delete(message.id)
    if (message.ok) {
      inputBytes += utf8Length(message.value)
      if (inputBytes > limits.maxInputBytes) return fail('input-budget', 'tool results exceeded ' + limits.maxInputBytes + ' bytes')
      waiter.resolve(parse(message.value))
    } else {
      waiter.reject(new ToolCallError(message.error))
    }
  }

  async function start(program, settingsText) {
    const settings = parse(settingsText)
    limits = settings.limits
    const tools = create(null)
    for (const name of settings.toolNames) {
      defineProperty(tools, name, { value: (args) => callTool(name, args), enumerable: true })
    }
    freeze(tools)
    for (const [name, value] of [
      ['tools', tools], ['console', consoleObject], ['ToolCallError', ToolCallError],
      ['setTimeout', setTimeoutShim], ['clearTimeout', clearTimeoutShim],
    ]) {
      defineProperty(global, name, { value, writable: false, enumerable: false, configurable: false })
    }
    post({ t: 'started' })
    let value
    try {
      value = await program()
    } catch (error) {
      return fail('runtime', describeError(error))
    }
    if (stopped) return
    if (value === undefined) return post({ t: 'done' })
    let text
    try { text = stringify(value) } catch (error) { return fail('runtime', 'the returned value is not JSON: ' + describeError(error)) }
    if (text === undefined) return fail('runtime', 'the returned value is not JSON: ' + typeof value)
    if (utf8Length(text) > limits.maxResultBytes) return fail('result-limit', 'returned more than ' + limits.maxResultBytes + ' bytes')
    post({ t: 'done', value: text })
  }

  return { deliver, start }
})`
