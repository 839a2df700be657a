"""The confinement half of the qilin-tools Python runner: Landlock, seccomp and resource limits, applied by the
process to itself before it reads a program. The host joins the runner files into one script, this one first.
"""

import base64
import ctypes
import os
import resource
import signal
import struct
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


def apply_landlock(read_paths, write_paths, network):
    """With `network` (an approved escalated run granted it), TCP is left out of the handled rights: the filesystem
    rules and the scopes (abstract local sockets, signals) stay."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        raise OSError(ctypes.get_errno(), 'Landlock is not enabled in this kernel')
    fs_rights = FS_RIGHTS_BY_ABI.get(abi, FS_RIGHTS_LATEST)
    fields = [fs_rights]
    if abi >= 4:
        fields.append(0 if network else NET_BIND_TCP | NET_CONNECT_TCP)
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


PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2


class SockFprog(ctypes.Structure):
    _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]


def apply_seccomp(filter_config):
    """Loads the host's classic-BPF program (seccomp-filter.ts, profile `program` or `networked-program`), its
    own-pid slots set to this process's pid as the kernel sees it here (inside bubblewrap's pid namespace, that is
    not the host's number)."""
    program = bytearray(base64.b64decode(filter_config['program'], validate=True))
    if len(program) == 0 or len(program) % 8 != 0:
        raise ValueError(f'the seccomp program is {len(program)} bytes, not a whole number of instructions')
    for slot in filter_config['ownPidSlots']:
        struct.pack_into('=I', program, slot * 8 + 4, os.getpid())
    buffer = ctypes.create_string_buffer(bytes(program), len(program))
    fprog = SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), 'prctl(PR_SET_NO_NEW_PRIVS) failed')
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), 'prctl(PR_SET_SECCOMP) failed')
    return 'seccomp'


def apply_rlimits(limits):
    for name, value in (
        ('RLIMIT_AS', limits.get('memoryBytes')),
        ('RLIMIT_FSIZE', limits.get('fileBytes')),
        ('RLIMIT_CPU', limits.get('cpuSeconds')),
        ('RLIMIT_NOFILE', limits.get('openFiles')),
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
    if 'rlimits' in layers:
        applied.append(apply_rlimits(config.get('limits', {})))
    if 'landlock' in layers:
        stdlib = os.path.dirname(os.__file__)
        reads = [stdlib, '/usr/lib', '/usr/lib64', '/lib', '/lib64', '/dev/urandom', '/dev/null']
        network = config.get('network') is True
        applied.append(apply_landlock(reads + config.get('readPaths', []), config.get('writePaths', []), network))
    if 'seccomp' in layers:
        applied.append(apply_seccomp(config['seccomp']))
    return applied
