import { heapBoundPrelude } from './heap-bound-prelude.js'

/**
 * Runs inside the isolate before the program, as a function expression given the host channel: `send`, a
 * copying callback that takes one string and returns at once, and `exchange`, a reference whose
 * `applySyncPromise` hands the host one string and blocks this isolate's thread until the host answers with
 * another (within one turn of the host's event loop). It removes what lets memory escape the heap limit, captures
 * every built-in it uses later before the program can poison them, and returns `{ deliver, start }`. Only JSON
 * text crosses the boundary in either direction, in the messages of `program-messages.ts`: the program's side
 * sends batches of them one per line, the host answers with a JSON array of them (a successful result as the
 * pair `[id, value]`). Calls, timers and clears wait in
 * an outbox until the program's current synchronous run ends (one flush per microtask turn), so a
 * `Promise.all` of a thousand calls crosses once; a batch that carries a call goes by `exchange`, and the host
 * answers it with every result that is ready by then, so a sequential call costs one crossing each way and the
 * isolate never goes idle between calls to fast tools. It writes each message's frame by hand: a program that defines
 * `Object.prototype.toJSON` or replaces `Map`, `Array` or `JSON` methods changes only the values it
 * passes (its arguments, its result), never which message is sent. The host checks every message anyway.
 */
export const sandboxPrelude = String.raw`(function prelude(send, exchange) {
  'use strict'
  const global = globalThis
  const stringify = JSON.stringify
  const parse = JSON.parse
  const freeze = Object.freeze
  const defineProperty = Object.defineProperty
  const create = Object.create
  const isArray = Array.isArray
  const isFinite = Number.isFinite
  const apply = Reflect.apply
  const call = Function.prototype.call.bind(Function.prototype.call)
  const bind = Function.prototype.bind
  const charCodeAt = String.prototype.charCodeAt
  const regExpExec = RegExp.prototype.exec
  const exchangeSync = exchange.applySyncPromise
  const PromiseCtor = Promise
  const promiseThen = Promise.prototype.then
  const ErrorCtor = Error
  const TypeErrorCtor = TypeError
  const RangeErrorCtor = RangeError
  const StringCtor = String
  const NumberCtor = Number
  const framePattern = /program\.ts:(\d+):(\d+)/
  // Every function below is a parenthesized expression, which V8 compiles with the prelude while the pool prepares
  // the sandbox, not lazily on its first call inside a run: that lazy compiling was 0.3 ms of a \`return 1\`.

${heapBoundPrelude}
  let limits = { maxOutputBytes: 0, maxResultBytes: 0, maxSubCalls: 0, maxArgumentBytes: 0, maxPendingTimers: 0, maxBatchLength: 0 }
  let outputBytes = 0
  let subCalls = 0
  let stopped = false
  // Null-prototype tables with counters of their own: nothing the program can reach changes them. A sub-call
  // waiting for its result has its settling functions under its id in the first two.
  const resolvers = create(null)
  const rejecters = create(null)
  const timers = create(null)
  let liveTimers = 0
  let nextTimer = 0
  // Messages waiting for the end of this synchronous run, in order; a null-prototype table, so no setter the
  // program defines on Array.prototype or Object.prototype sees them. One table for the whole run: a flush reads
  // its entries and clears them before anything can post again.
  const outbox = create(null)
  let outboxLength = 0
  let outboxHasCall = false
  let flushScheduled = false

  const ownValue = (function ownValue(value) {
    const descriptor = create(null)
    descriptor.value = value
    descriptor.writable = true
    descriptor.enumerable = true
    descriptor.configurable = true
    return descriptor
  })

  const utf8Length = (function utf8Length(text) {
    let bytes = 0
    for (let index = 0; index < text.length; index++) {
      const code = call(charCodeAt, text, index)
      if (code < 0x80) bytes += 1
      else if (code < 0x800) bytes += 2
      else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) { bytes += 4; index++ }
      else bytes += 3
    }
    return bytes
  })

  // Strings only: JSON.stringify looks up toJSON on objects, never on a primitive string.
  const quote = (function quote(text) { return stringify(StringCtor(text)) })

  const safeText = (function safeText(value) {
    try { return StringCtor(value) } catch { return '[unprintable value]' }
  })

  const post = (function post(text, isCall) {
    outbox[outboxLength++] = text
    if (isCall) outboxHasCall = true
    if (!flushScheduled) {
      flushScheduled = true
      flushSoon()
    }
  })

  // A settled promise of our own whose own \`constructor\` is undefined: the captured then takes the intrinsic
  // Promise for it, never a constructor or species the program could have replaced.
  const settled = PromiseCtor.resolve()
  defineProperty(settled, 'constructor', { value: undefined, writable: false, enumerable: false, configurable: false })

  // Flushes after the program's current synchronous run: one reaction job, and no async function to resume.
  const flushSoon = (function flushSoon() {
    call(promiseThen, settled, flush)
  })

  // Sends what waits in the outbox, in batches of whole lines no longer than the host reads; the last batch goes
  // by exchange when the outbox held a call, unless \`sendingNext\` (something is sent right after; the turn's
  // flush passes undefined), and the host's answer is handled before this returns.
  const flush = (function flush(sendingNext) {
    flushScheduled = false
    if (outboxLength === 0 || stopped) return
    const count = outboxLength
    const viaExchange = outboxHasCall && !sendingNext
    outboxLength = 0
    outboxHasCall = false
    let batch = outbox[0]
    outbox[0] = undefined
    for (let index = 1; index < count; index++) {
      const text = outbox[index]
      outbox[index] = undefined
      if (batch.length + text.length < limits.maxBatchLength) batch = batch + '\n' + text
      else {
        send(batch)
        batch = text
      }
    }
    if (!viaExchange) return send(batch)
    const answer = call(exchangeSync, exchange, undefined, [batch])
    if (typeof answer === 'string' && answer !== '') deliver(answer)
  })

  // Prints, the start and the end go at once, after whatever the outbox holds, so nothing sent overtakes them.
  const sendNow = (function sendNow(text) {
    flush(true)
    send(text)
  })

  const fail = (function fail(kind, message) {
    if (stopped) return
    sendNow('{"t":"done","error":{"kind":' + quote(kind) + ',"message":' + quote(safeText(message)) + '}}')
    stopped = true
  })

  class ToolCallError extends ErrorCtor {
    constructor(info, callId) {
      super(safeText(info.message))
      defineProperty(this, 'name', ownValue('ToolCallError'))
      defineProperty(this, 'toolName', ownValue(safeText(info.toolName)))
      defineProperty(this, 'code', ownValue(safeText(info.code)))
      defineProperty(this, 'callId', ownValue(safeText(callId)))
    }
  }

  // Arguments must survive JSON unchanged: no functions, symbols, bigints, holes or non-finite numbers.
  const losslessReplacer = (function losslessReplacer(key, inner) {
    const kind = typeof inner
    if (kind === 'function' || kind === 'symbol' || kind === 'bigint' || (kind === 'undefined' && isArray(this))) {
      throw new TypeErrorCtor('tool arguments must be JSON: ' + kind + ' at ' + (key === '' ? 'the root' : quote(key)))
    }
    if (kind === 'number' && !isFinite(inner)) {
      throw new TypeErrorCtor('tool arguments must be JSON: ' + StringCtor(inner) + ' at ' + quote(key))
    }
    return inner
  })

  const never = (function never() {})

  // The settling functions of the promise a call is making: one executor for every call, so a call allocates no
  // closure for it.
  let madeResolve = never
  let madeReject = never
  const capture = (function capture(resolve, reject) {
    madeResolve = resolve
    madeReject = reject
  })

  // The hot path of every sub-call: each step is inline here, since every function it runs is compiled afresh in
  // each isolate. \`quotedName\` is the tool's name as JSON text, quoted once when the program starts.
  const callTool = (function callTool(quotedName, args) {
    if (stopped) return new PromiseCtor(never)
    let text
    try { text = stringify(args === undefined ? {} : args, losslessReplacer) } catch (error) { return PromiseCtor.reject(error) }
    if (typeof text !== 'string') return PromiseCtor.reject(new TypeErrorCtor('tool arguments must be JSON'))
    // A UTF-16 unit is at most 3 UTF-8 bytes: only text that could be over the limit is counted.
    if (text.length * 3 > limits.maxArgumentBytes && utf8Length(text) > limits.maxArgumentBytes) {
      return PromiseCtor.reject(new RangeErrorCtor('tool arguments are larger than ' + limits.maxArgumentBytes + ' bytes'))
    }
    if (++subCalls > limits.maxSubCalls) {
      fail('sub-call-limit', 'more than ' + limits.maxSubCalls + ' tool calls')
      return new PromiseCtor(never)
    }
    const id = subCalls
    outbox[outboxLength++] = '{"t":"call","id":' + id + ',"name":' + quotedName + ',"args":' + text + '}'
    outboxHasCall = true
    if (!flushScheduled) {
      flushScheduled = true
      flushSoon()
    }
    const pending = new PromiseCtor(capture)
    resolvers[id] = madeResolve
    rejecters[id] = madeReject
    return pending
  })

  const render = (function render(value) {
    if (typeof value === 'string') return value
    if (value instanceof ErrorCtor) return safeText(value.name || 'Error') + ': ' + safeText(value.message)
    if (value === undefined) return 'undefined'
    if (typeof value === 'function') return '[function ' + safeText(value.name || 'anonymous') + ']'
    if (typeof value === 'bigint') return StringCtor(value) + 'n'
    if (typeof value === 'symbol') return StringCtor(value)
    try { const text = stringify(value); return typeof text === 'string' ? text : safeText(value) } catch { return safeText(value) }
  })

  const print = (function print(values) {
    if (stopped) return
    let line = ''
    for (let index = 0; index < values.length; index++) line += (index === 0 ? '' : ' ') + render(values[index])
    outputBytes += utf8Length(line) + 1
    if (outputBytes > limits.maxOutputBytes) {
      fail('output-limit', 'printed more than ' + limits.maxOutputBytes + ' bytes')
      throw new ErrorCtor('output limit reached')
    }
    sendNow('{"t":"out","text":' + quote(line + '\n') + '}')
  })

  const consoleObject = create(null)
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    consoleObject[level] = function (...values) { print(values) }
  }
  freeze(consoleObject)

  const setTimeoutShim = (function setTimeoutShim(callback, ms, ...args) {
    if (typeof callback !== 'function') throw new TypeErrorCtor('setTimeout needs a function')
    if (liveTimers >= limits.maxPendingTimers) throw new RangeErrorCtor('more than ' + limits.maxPendingTimers + ' pending timers')
    const delay = NumberCtor(ms)
    const id = ++nextTimer
    timers[id] = () => apply(callback, undefined, args)
    liveTimers++
    post('{"t":"timer","id":' + id + ',"ms":' + (delay > 0 && delay < 1e15 ? delay : 0) + '}', false)
    return id
  })
  const clearTimeoutShim = (function clearTimeoutShim(id) {
    if (typeof id !== 'number' || timers[id] === undefined) return
    delete timers[id]
    liveTimers--
    post('{"t":"clear","id":' + id + '}', false)
  })

  const describeError = (function describeError(error) {
    if (error instanceof ErrorCtor) {
      let at = ''
      try {
        const frame = call(regExpExec, framePattern, safeText(error.stack))
        if (frame !== null) at = ' (line ' + frame[1] + ', column ' + frame[2] + ')'
      } catch {}
      return safeText(error.name || 'Error') + ': ' + safeText(error.message) + at
    }
    return 'thrown value ' + render(error)
  })

  // A successful result comes as [id, value]; every other message as its object.
  const deliverOne = (function deliverOne(message) {
    if (isArray(message)) {
      const resolve = resolvers[message[0]]
      if (resolve === undefined) return
      resolvers[message[0]] = undefined
      rejecters[message[0]] = undefined
      return resolve(message[1])
    }
    const id = message.id
    if (message.t === 'timer') {
      const run = timers[id]
      if (run === undefined) return
      delete timers[id]
      liveTimers--
      run()
      return
    }
    const resolve = resolvers[id]
    if (resolve === undefined) return
    const reject = rejecters[id]
    resolvers[id] = undefined
    rejecters[id] = undefined
    reject(new ToolCallError(message.error, message.callId))
  })

  // The host's batch: a JSON array of its messages, in the order it sent them. What a timer callback throws is
  // dropped, as it always was; the rest of the batch still settles.
  const deliver = (function deliver(text) {
    if (stopped) return
    const messages = parse(text)
    for (let index = 0; index < messages.length; index++) {
      if (stopped) return
      try { deliverOne(messages[index]) } catch {}
    }
  })

  const start = (async function start(program, settingsText) {
    const settings = parse(settingsText)
    limits = settings.limits
    const tools = create(null)
    for (const name of settings.toolNames) {
      const quotedName = quote(name)
      defineProperty(tools, name, { value: call(bind, callTool, undefined, quotedName), enumerable: true })
    }
    freeze(tools)
    for (const [name, value] of [
      ['tools', tools], ['console', consoleObject], ['ToolCallError', ToolCallError],
      ['setTimeout', setTimeoutShim], ['clearTimeout', clearTimeoutShim],
    ]) {
      defineProperty(global, name, { value, writable: false, enumerable: false, configurable: false })
    }
    sendNow('{"t":"started"}')
    let value
    try {
      value = await program()
    } catch (error) {
      return fail('runtime', describeError(error))
    }
    if (stopped) return
    if (value === undefined) { sendNow('{"t":"done"}'); stopped = true; return }
    let text
    try { text = stringify(value) } catch (error) { return fail('runtime', 'the returned value is not JSON: ' + describeError(error)) }
    if (typeof text !== 'string') return fail('runtime', 'the returned value is not JSON: ' + typeof value)
    if (utf8Length(text) > limits.maxResultBytes) return fail('result-limit', 'returned more than ' + limits.maxResultBytes + ' bytes')
    sendNow('{"t":"done","value":' + text + '}')
    stopped = true
  })

  return { deliver, start }
})`
