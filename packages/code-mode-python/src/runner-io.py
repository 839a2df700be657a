"""The channel and value half of the qilin-tools Python runner: JSON lines on fd 3, the lossless-JSON check, and the
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
