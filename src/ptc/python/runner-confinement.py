"""The confinement half of the qilin-tools Python runner: Landlock, seccomp and resource limits, applied by the
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
