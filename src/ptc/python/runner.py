"""The qilin-tools Python runner: confines itself (runner-confinement.py), then runs one program sent by the host
over the channel (runner-io.py). The host joins the three files into one script, in that order, this one last.

Protocol: JSON lines on fd 3 (a socket the host holds). stdout and stderr are never used for it.
  runner -> host  {"t":"ready","layers":[...]}  {"t":"fatal","message":..} (before a program only)
                  {"t":"call","id":n,"name":..,"args":{..}}  {"t":"out","text":..}
                  {"t":"done","value":..} | {"t":"done","error":{"kind":..,"message":..}}
  host -> runner  {"t":"start","code":..,"tools":[..],"timeoutMs":..}  {"t":"result","id":n,"ok":..,"callId":..,"value"|"error":..}
The messages of a run are the ones the TypeScript prelude writes too (src/ptc/program-messages.ts). The program shares
this process and can write to fd 3 itself, so the host checks every line and words every failure from its own facts.
"""

import json
import sys

# No network inside the default sandbox: asyncio's optional TLS support is skipped, which saves start-up time.
# A runner granted the network (an approved escalated run) keeps it.
if json.loads(sys.argv[1]).get('network') is not True:
    sys.modules.setdefault('ssl', None)

import ast
import asyncio
import linecache
import os
import signal
import traceback
import types

PROGRAM_FILE = '<program>'


class Deadline(BaseException):
    """Raised by the interval timer; a BaseException so except Exception in a program cannot swallow it."""


class RunFailure(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


class ToolCallError(Exception):
    """A tool call that did not succeed. code is one of the pipeline's error codes."""

    def __init__(self, tool_name, code, message, call_id=''):
        super().__init__(f'{tool_name}: {message}')
        self.tool_name = tool_name
        self.code = code
        self.message = message
        self.call_id = call_id


# ---------------------------------------------------------------- the program


class ProgramReturn(BaseException):
    """Carries a top-level return out of the module body."""

    def __init__(self, value):
        super().__init__()
        self.value = value


class TopLevelReturns(ast.NodeTransformer):
    """Rewrites each return outside any def or class into raising ProgramReturn, on the same line."""

    def visit_Return(self, node):
        value = node.value or ast.Constant(value=None)
        call = ast.Call(func=ast.Name(id='__program_return__', ctx=ast.Load()), args=[value], keywords=[])
        return ast.copy_location(ast.Raise(exc=call, cause=None), node)

    def skip(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = skip


def compile_program(source):
    """The source as a module whose body may await and return, keeping the model's line numbers."""
    tree = TopLevelReturns().visit(ast.parse(source, PROGRAM_FILE, 'exec'))
    ast.fix_missing_locations(tree)
    linecache.cache[PROGRAM_FILE] = (len(source), None, source.splitlines(True), PROGRAM_FILE)
    return compile(tree, PROGRAM_FILE, 'exec', flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)


async def run_module(code, namespace):
    try:
        pending = eval(code, namespace)
        if pending is not None:
            await pending
    except ProgramReturn as returned:
        return returned.value
    return None


def program_traceback(error):
    """The exception line, then the traceback limited to the program's own frames."""
    report = traceback.TracebackException.from_exception(error)
    seen = set()
    pending = [report]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        frames = [frame for frame in current.stack if frame.filename == PROGRAM_FILE]
        current.stack = traceback.StackSummary.from_list(frames)
        pending += [current.__cause__, current.__context__]
    full = ''.join(report.format()).rstrip('\n')
    summary = ''.join(report.format_exception_only()).rstrip('\n')
    # The exception line first: it is what the model needs, and the traceback follows it.
    stack = full[: -len(summary)].rstrip('\n') if full.endswith(summary) else full
    return f'{summary}\n{stack}' if stack else summary


def syntax_message(problem):
    """SyntaxError: <what> (line L, column C), then the offending line with a caret under the column."""
    where = f'line {problem.lineno}' + (f', column {problem.offset}' if problem.offset else '')
    message = f'{type(problem).__name__}: {problem.msg} ({where})'
    line = (problem.text or '').rstrip('\n')
    if line.strip():
        indent = len(line) - len(line.lstrip())
        message += f'\n    {line.strip()}'
        if problem.offset and problem.offset > indent:
            message += '\n    ' + ' ' * (problem.offset - 1 - indent) + '^'
    return message


def make_tools(entries, call):
    """entries: [name, attribute or None] pairs; the host decides the attribute spellings, as the SDK shows them."""
    by_name = {name: name for name, _ in entries}
    by_attribute = {attribute: name for name, attribute in entries if attribute}

    def binding(name):
        async def invoke(*positional, **arguments):
            if positional:
                raise TypeError(f'tools[{name!r}] takes keyword arguments only')
            return await call(name, arguments)

        invoke.__name__ = invoke.__qualname__ = name
        return invoke

    class Tools:
        __slots__ = ()

        def __getattr__(self, attribute):
            if attribute in by_attribute:
                return binding(by_attribute[attribute])
            raise AttributeError(f'no tool named {attribute!r} is available to this program')

        def __getitem__(self, name):
            if name in by_name:
                return binding(name)
            raise KeyError(f'no tool named {name!r} is available to this program')

        def __contains__(self, name):
            return name in by_name or name in by_attribute

        def __dir__(self):
            return sorted(by_attribute)

        def __repr__(self):
            return f'<tools: {", ".join(sorted(by_name))}>'

    return Tools()


class Bridge:
    """Sends sub-calls to the host and resolves them when the host answers."""

    def __init__(self, loop, capture):
        self.loop = loop
        self.capture = capture
        self.next_id = 0
        self.waiting = {}
        self.flush_scheduled = False

    async def call(self, name, arguments):
        try:
            arguments = check_json(arguments)
        except (TypeError, ValueError) as problem:
            raise type(problem)(f'tools[{name!r}] arguments are not lossless JSON: {problem}') from None
        self.next_id += 1
        future = self.loop.create_future()
        self.waiting[self.next_id] = future
        self.send({'t': 'call', 'id': self.next_id, 'name': name, 'args': arguments})
        reply = await future
        if reply.get('ok'):
            return reply.get('value')
        error = reply.get('error') or {}
        code, message = error.get('code', 'TOOL_ERROR'), error.get('message', 'the call failed')
        raise ToolCallError(name, code, message, reply.get('callId', ''))

    def send(self, message):
        printed = self.capture.take()
        if printed:
            channel.send({'t': 'out', 'text': printed})
        channel.send(message)
        if not self.flush_scheduled:
            self.flush_scheduled = True
            self.loop.call_soon(self.flush)

    def flush(self):
        self.flush_scheduled = False
        channel.flush()

    def on_readable(self):
        for message in channel.read_available():
            future = self.waiting.pop(message.get('id'), None) if message.get('t') == 'result' else None
            if future is not None and not future.done():
                future.set_result(message)


def encode_result(value, limit):
    if value is None:
        return None
    try:
        checked = check_json(value)
    except (TypeError, ValueError) as problem:
        raise RunFailure('runtime', f'the returned value is not lossless JSON: {problem}') from None
    size = len(json.dumps(checked, ensure_ascii=False, separators=(',', ':')).encode())
    if size > limit:
        raise RunFailure('result-limit', f'the returned value is {size} bytes, over the {limit} byte limit')
    return checked


def run_program(start, loop, limits):
    capture = Capture(limits.get('outputBytes', 1 << 20))
    bridge = Bridge(loop, capture)
    sys.stdout = sys.stderr = capture
    module = types.ModuleType('__program__')
    module.__dict__.update(
        tools=make_tools(start['tools'], bridge.call),
        ToolCallError=ToolCallError,
        asyncio=asyncio,
        __program_return__=ProgramReturn,
    )
    sys.modules['__program__'] = module
    outcome = {'t': 'done'}
    try:
        code = compile_program(start['code'])
    except SyntaxError as problem:
        outcome['error'] = {'kind': 'syntax', 'message': syntax_message(problem)}
        return outcome, capture
    loop.add_reader(CHANNEL, bridge.on_readable)
    seconds = max(start.get('timeoutMs', 120000), 1) / 1000
    signal.signal(signal.SIGALRM, on_deadline)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
    try:
        task = loop.create_task(run_module(code, module.__dict__))
        value = loop.run_until_complete(task)
        outcome['value'] = encode_result(value, limits.get('resultBytes', 1 << 20))
    except Deadline:
        outcome['error'] = {'kind': 'deadline', 'message': f'the program ran past its {seconds:g} s deadline'}
    except OutputLimit as problem:
        outcome['error'] = {'kind': 'output-limit', 'message': str(problem)}
    except MemoryError:
        outcome['error'] = {'kind': 'memory', 'message': 'the program ran out of memory'}
    except RunFailure as problem:
        outcome['error'] = {'kind': problem.kind, 'message': problem.message}
    except SystemExit as problem:
        if problem.code not in (None, 0):
            outcome['error'] = {'kind': 'runtime', 'message': f'the program exited with status {problem.code}'}
    except BaseException as problem:  # every program failure becomes data
        outcome['error'] = {'kind': 'runtime', 'message': program_traceback(problem)}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
    return outcome, capture


def on_deadline(signum, frame):
    if not critical:  # otherwise the interval timer fires again in 50 ms
        raise Deadline()


def main():
    config = json.loads(sys.argv[1])
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda loop, context: None)
    asyncio.set_event_loop(loop)
    try:
        layers = confine(config)
    except BaseException as problem:
        channel.send({'t': 'fatal', 'message': f'{type(problem).__name__}: {problem}'})
        channel.flush()
        return
    channel.send({'t': 'ready', 'layers': layers, 'python': sys.version.split()[0]})
    channel.flush()
    start = channel.read_one()
    outcome, capture = run_program(start, loop, config.get('limits', {}))
    printed = capture.take()
    if printed:
        channel.send({'t': 'out', 'text': printed})
    channel.send(outcome)
    channel.flush()
    os._exit(0)


if __name__ == '__main__':
    main()
