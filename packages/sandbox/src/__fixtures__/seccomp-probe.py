"""Installs a seccomp program (base64, with its own-pid slots filled in) and reports what each probe got.

argv[1] is JSON: {"filter": base64 | null, "ownPidSlots": [n, ...], "probes": [{"name", "kind", ...}]}.
Prints one JSON object: probe name -> "ok" | "ok <value>" | an errno name | an exception class name.
Raw calls take "own-pid" and "parent-pid" as argument placeholders.
"""

import base64
import ctypes
import errno
import json
import os
import resource
import socket
import struct
import sys
import threading

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2


class SockFprog(ctypes.Structure):
    _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]


libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def install(program, slots):
    program = bytearray(program)
    for slot in slots:
        struct.pack_into('=I', program, slot * 8 + 4, os.getpid())
    buffer = ctypes.create_string_buffer(bytes(program), len(program))
    fprog = SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), 'PR_SET_NO_NEW_PRIVS')
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), 'PR_SET_SECCOMP')


def argument(value):
    return {'own-pid': os.getpid(), 'parent-pid': os.getppid()}.get(value, value)


def raw(probe):
    args = [ctypes.c_long(argument(value)) for value in probe['args']]
    result = libc.syscall(ctypes.c_long(probe['nr']), *args)
    return 'ok' if result >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def thread(probe):
    box = []
    worker = threading.Thread(target=lambda: box.append(7))
    worker.start()
    worker.join()
    return f'ok {box[0]}'


def fork(probe):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return f'ok {os.waitpid(pid, 0)[1]}'


def spawn(probe):
    pid = os.posix_spawn('/bin/true', ['true'], {})
    return f'ok {os.waitpid(pid, 0)[1]}'


def execute(probe):
    os.execv('/nonexistent/program', ['program'])


def i386_getpid(probe):
    """getpid through the 32-bit entry point (int 0x80), which seccomp sees as another architecture."""
    import mmap

    code = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    code.write(bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3]))  # mov eax, 20; int 0x80; ret
    function = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(code)))
    return 'ok' if function() == os.getpid() else 'wrong pid'


def signal_process(probe):
    os.kill(argument(probe['pid']), 0)
    return 'ok'


kinds = {
    'raw': raw,
    'thread': thread,
    'fork': fork,
    'spawn': spawn,
    'exec': execute,
    'socket': lambda probe: socket.socket().close() or 'ok',
    'kill': signal_process,
    'i386-getpid': i386_getpid,
}


def main():
    config = json.loads(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a probe the filter kills (SIGSYS) leaves no core file
    if config.get('filter') is not None:
        install(base64.b64decode(config['filter']), config.get('ownPidSlots', []))
    results = {}
    for probe in config['probes']:
        try:
            results[probe['name']] = kinds[probe['kind']](probe)
        except OSError as problem:
            results[probe['name']] = errno.errorcode.get(problem.errno, type(problem).__name__)
        except BaseException as problem:
            results[probe['name']] = type(problem).__name__
    print(json.dumps(results))
    sys.stdout.flush()


main()
