// Generated from runner-confinement.py, runner-io.py and runner.py by runner-source.test.ts
// (RUNNER_SOURCE_WRITE=1 npx vitest run src/ptc/python/runner-source.test.ts). Do not edit.
export const runnerFiles = {
  'runner-confinement.py': `"""The confinement half of the qilin-tools Python runner: Landlock, seccomp and resource limits, applied by the
process to itself before it reads a program. The host joins the runner files into one script, this one first.
"""

import ctypes
import errno
import os
import resource
import signal
import sys

LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
PR_SET_NO_NEW_PRIVS = 38
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_DIR, FS_MAKE_REG = 1 << 4, 1 << 5, 1 << 7, 1 << 8
FS_REFER, FS_TRUNCATE = 1 << 13, 1 << 14
FS_RIGHTS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1}
FS_RIGHTS_LATEST = (1 << 16) - 1
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [('allowed_access', ctypes.c_uint64), ('parent_fd', ctypes.c_int32)]


def apply_landlock(read_paths, write_paths):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        raise OSError(ctypes.get_errno(), 'Landlock is not enabled in this kernel')
    fs_rights = FS_RIGHTS_BY_ABI.get(abi, FS_RIGHTS_LATEST)
    fields = [fs_rights]
    if abi >= 4:
        fields.append(NET_BIND_TCP | NET_CONNECT_TCP)
    if abi >= 6:
        fields.append(SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL)
    attr = (ctypes.c_uint64 * len(fields))(*fields)
    ruleset = libc.syscall(LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), 'landlock_create_ruleset failed')
    read = FS_READ_FILE | FS_READ_DIR
    write = read | FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR | FS_MAKE_REG
    write |= (FS_REFER if abi >= 2 else 0) | (FS_TRUNCATE if abi >= 3 else 0)
    grants = [(path, read) for path in read_paths] + [(path, write) for path in write_paths]
    for path, rights in grants:
        try:
            descriptor = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except FileNotFoundError:
            continue
        if not os.path.isdir(path):
            rights &= FS_READ_FILE | FS_WRITE_FILE | (FS_TRUNCATE if abi >= 3 else 0)
        rule = PathBeneath(rights & fs_rights, descriptor)
        added = libc.syscall(LANDLOCK_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0)
        os.close(descriptor)
        if added < 0:
            raise OSError(ctypes.get_errno(), f'landlock_add_rule failed for {path}')
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), 'prctl(PR_SET_NO_NEW_PRIVS) failed')
    if libc.syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
        raise OSError(ctypes.get_errno(), 'landlock_restrict_self failed')
    os.close(ruleset)
    return f'landlock-v{abi}'


CLONE_THREAD = 0x00010000
DENIED_SYSCALLS = (
    'fork vfork execve execveat socket socketpair connect bind listen accept accept4 ptrace process_vm_readv '
    'process_vm_writev pidfd_open pidfd_send_signal pidfd_getfd rt_sigqueueinfo rt_tgsigqueueinfo mount umount2 '
    'pivot_root chroot unshare setns bpf perf_event_open userfaultfd io_uring_setup io_uring_enter '
    'io_uring_register keyctl add_key request_key init_module finit_module delete_module kexec_load '
    'kexec_file_load reboot swapon swapoff acct settimeofday clock_settime adjtimex personality quotactl '
    'name_to_handle_at open_by_handle_at memfd_create setrlimit mknod mknodat open_tree move_mount fsopen '
    'fsconfig fsmount fspick mount_setattr iopl ioperm kcmp syslog'
).split()


def import_seccomp(module_path):
    if module_path and module_path not in sys.path:
        sys.path.append(module_path)
    try:
        import seccomp
    finally:
        if module_path in sys.path:
            sys.path.remove(module_path)
    return seccomp


def apply_seccomp(seccomp):
    own = os.getpid()
    deny = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in DENIED_SYSCALLS:
        try:
            rules.add_rule(deny, name)
        except (RuntimeError, ValueError):
            pass  # not a syscall on this architecture
    # glibc falls back from clone3 to clone only on ENOSYS; threads stay possible, processes do not.
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), 'clone3')
    rules.add_rule(deny, 'clone', seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    rules.add_rule(deny, 'prlimit64', seccomp.Arg(2, seccomp.NE, 0))
    for name in ('kill', 'tgkill', 'tkill'):
        rules.add_rule(deny, name, seccomp.Arg(0, seccomp.NE, own))
    rules.load()
    return 'seccomp'


def apply_rlimits(limits):
    for name, value in (
        ('RLIMIT_AS', limits.get('memoryBytes')),
        ('RLIMIT_FSIZE', limits.get('fileBytes')),
        ('RLIMIT_CPU', limits.get('cpuSeconds')),
        ('RLIMIT_NPROC', 0),
        ('RLIMIT_CORE', 0),
    ):
        if value is not None:
            resource.setrlimit(getattr(resource, name), (value, value))
    return 'rlimits'


PR_SET_PDEATHSIG = 1


def confine(config):
    if sys.platform.startswith('linux'):  # die with the host even without bubblewrap's --die-with-parent
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    applied = []
    layers = config.get('layers', [])
    seccomp = import_seccomp(config.get('seccompPath')) if 'seccomp' in layers else None
    if 'rlimits' in layers:
        applied.append(apply_rlimits(config.get('limits', {})))
    if 'landlock' in layers:
        stdlib = os.path.dirname(os.__file__)
        reads = [stdlib, '/usr/lib', '/usr/lib64', '/lib', '/lib64', '/dev/urandom', '/dev/null']
        applied.append(apply_landlock(reads + config.get('readPaths', []), config.get('writePaths', [])))
    if 'seccomp' in layers:
        applied.append(apply_seccomp(seccomp))
    return applied
`,
  'runner-io.py': String.raw`"""The channel and value half of the qilin-tools Python runner: JSON lines on fd 3, the lossless-JSON check, and the
stdout/stderr stand-in that counts printed bytes. Joined with the other runner files into one script by the host.
"""

import json
import os

CHANNEL = 3
SAFE_INTEGER = 2**53 - 1


class OutputLimit(BaseException):
    pass


class Channel:
    def __init__(self):
        self.pending = b''
        self.outbox = []

    def send(self, message):
        self.outbox.append(json.dumps(message, ensure_ascii=False, separators=(',', ':'), allow_nan=False) + '\n')

    def flush(self):
        if not self.outbox:
            return
        global critical
        critical = True  # a deadline landing mid-write would leave half a message on the channel
        try:
            data = ''.join(self.outbox).encode()
            self.outbox.clear()
            view = memoryview(data)
            while view:
                written = os.write(CHANNEL, view)
                view = view[written:]
        finally:
            critical = False

    def read_available(self):
        global critical
        critical = True
        try:
            chunk = os.read(CHANNEL, 1 << 16)
            if not chunk:
                os._exit(1)  # the host is gone
            lines = (self.pending + chunk).split(b'\n')
            self.pending = lines.pop()
            return [json.loads(line) for line in lines if line]
        finally:
            critical = False

    def read_one(self):
        while True:
            messages = self.read_available()
            if messages:
                return messages[0]


channel = Channel()
critical = False


# ---------------------------------------------------------------- JSON checks


def check_json(value, path='$'):
    """Returns value as plain JSON or raises TypeError/ValueError naming where it is not lossless JSON."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        if -SAFE_INTEGER <= value <= SAFE_INTEGER:
            return value
        raise ValueError(f'{path}: integer {value} is beyond 2**53 - 1 and would lose precision in JSON')
    if isinstance(value, float):
        if value != value or value in (float('inf'), float('-inf')):
            raise ValueError(f'{path}: {value} is not a JSON number')
        return value
    if isinstance(value, (list, tuple)):
        return [check_json(item, f'{path}[{index}]') for index, item in enumerate(value)]
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f'{path}: object keys must be strings, not {type(key).__name__}')
            result[key] = check_json(item, f'{path}.{key}')
        return result
    raise TypeError(f'{path}: a {type(value).__name__} is not JSON')


# ---------------------------------------------------------------- output capture


class Capture:
    """Stands in for stdout and stderr; counts bytes inside the sandbox and stops the program at the cap."""

    encoding = 'utf-8'
    errors = 'strict'

    def __init__(self, limit):
        self.limit = limit
        self.used = 0
        self.parts = []

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f'write() argument must be str, not {type(text).__name__}')
        size = len(text.encode('utf-8', 'surrogatepass'))
        if self.used + size > self.limit:
            room = self.limit - self.used
            self.parts.append(text.encode('utf-8', 'surrogatepass')[:room].decode('utf-8', 'ignore'))
            self.used = self.limit
            raise OutputLimit(f'printed output passed {self.limit} bytes')
        self.used += size
        self.parts.append(text)
        return len(text)

    def take(self):
        text = ''.join(self.parts)
        self.parts.clear()
        return text

    def flush(self):
        pass

    def isatty(self):
        return False

    def writable(self):
        return True
`,
  'runner.py': String.raw`"""The qilin-tools Python runner: confines itself (runner-confinement.py), then runs one program sent by the host
over the channel (runner-io.py). The host joins the three files into one script, in that order, this one last.

Protocol: JSON lines on fd 3 (a socket the host holds). stdout and stderr are never used for it.
  runner -> host  {"t":"ready","layers":[...]}  {"t":"call","id":n,"name":..,"args":{..}}
                  {"t":"out","text":..}  {"t":"done","value":..} | {"t":"done","error":{"kind":..,"message":..}}
                  {"t":"fatal","message":..} when a requested confinement layer cannot be applied
  host -> runner  {"t":"start","code":..,"tools":[..],"timeoutMs":..}  {"t":"result","id":n,"ok":..,"value"|"error":..}
"""

import sys

# No network inside the sandbox: asyncio's optional TLS support is skipped, which saves start-up time.
sys.modules.setdefault('ssl', None)

import ast
import asyncio
import json
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
`,
} as const

/** The whole runner as one script: confinement, then the channel, then the program runner. */
export const runnerSource: string = Object.values(runnerFiles).join('\n')
