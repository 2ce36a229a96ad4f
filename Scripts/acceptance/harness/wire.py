"""Just enough of the wire protocol for raw-socket tests (see Sources/MessageAIProtocol).

Frame: u32 length (bytes after it) BE, u16 type, u8 flags, u8 reserved, u32 request id, payload.
Payload: fields of tag u8, uvarint length, value; uint values are uvarints."""
import os
import socket
import struct
import time

HELLO, WELCOME, PING, PONG, ERROR, OK = 0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006
REGISTER, LOGIN, SESSION = 0x0101, 0x0102, 0x0104
USER_SEARCH, USERS = 0x0201, 0x0202
DM_OPEN, CONVERSATION = 0x0301, 0x0302
SEND, SEND_ACK, MESSAGE = 0x0401, 0x0402, 0x0403
ERROR_NAMES = {1: "malformed_frame", 2: "frame_too_large", 3: "unsupported_version",
               4: "handshake_required", 5: "unknown_frame_type", 6: "bad_request",
               7: "invalid_utf8", 8: "too_long", 9: "not_authenticated", 13: "username_taken",
               21: "not_a_member", 22: "rate_limited", 25: "idle_timeout", 29: "invalid_argument"}


def uvarint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def read_uvarint(data, i):
    result = shift = 0
    while True:
        b = data[i]
        result |= (b & 0x7F) << shift
        i += 1
        if not b & 0x80:
            return result, i
        shift += 7


def field(tag, value):
    if isinstance(value, int):
        value = uvarint(value)
    elif isinstance(value, str):
        value = value.encode("utf-8")
    return bytes([tag]) + uvarint(len(value)) + value


def fields(*pairs):
    return b"".join(field(t, v) for t, v in pairs)


def parse_fields(payload):
    """tag -> list of raw values."""
    out, i = {}, 0
    while i < len(payload):
        tag = payload[i]
        length, i = read_uvarint(payload, i + 1)
        out.setdefault(tag, []).append(payload[i:i + length])
        i += length
    return out


def uint_of(raw):
    return read_uvarint(raw, 0)[0]


def frame(ftype, request_id, payload=b"", flags=0):
    return struct.pack(">IHBBI", 8 + len(payload), ftype, flags, 0, request_id) + payload


def hello(request_id=1):
    return frame(HELLO, request_id, fields((1, 2), (2, 2), (4, "acceptance-raw")))


def register(username, password, request_id=2):
    return frame(REGISTER, request_id, fields((1, f"{username}@example.test"), (2, username),
                                              (3, password), (4, username)))


def dm_open(username, request_id):
    return frame(DM_OPEN, request_id, fields((1, username)))


def send(conversation_id, text, request_id, client_id=None):
    client_id = client_id or os.urandom(16)
    return frame(SEND, request_id, fields((1, conversation_id), (2, client_id), (3, text)))


class RawConnection:
    """A blocking socket with a frame reader; every read has a deadline."""

    def __init__(self, host, port, timeout=10, receive_buffer=0):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:  # before connecting, so the window never grows past it
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect((host, port))
        self.buf = b""

    def send_bytes(self, data):
        self.sock.sendall(data)

    def read_frame(self, timeout=10):
        """(type, flags, request id, payload), or None when the server closed the connection."""
        deadline = time.monotonic() + timeout
        while True:
            if len(self.buf) >= 4:
                length = struct.unpack(">I", self.buf[:4])[0]
                if len(self.buf) >= 4 + length:
                    raw, self.buf = self.buf[:4 + length], self.buf[4 + length:]
                    ftype, flags, _, rid = struct.unpack(">HBBI", raw[4:12])
                    return ftype, flags, rid, raw[12:]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no frame from the server in time")
            self.sock.settimeout(remaining)
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                return None
            if not data:
                return None
            self.buf += data

    def request(self, data, timeout=10):
        """Sends a request and returns the answer with the same request id (pushes skipped)."""
        rid = struct.unpack(">I", data[8:12])[0]
        self.send_bytes(data)
        while True:
            f = self.read_frame(timeout)
            if f is None or f[2] == rid:
                return f

    def closed_by_server(self, timeout=10):
        """True once the server closes the connection (reading and discarding frames until then)."""
        try:
            while self.read_frame(timeout) is not None:
                pass
            return True
        except TimeoutError:
            return False

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def error_name(payload):
    code = uint_of(parse_fields(payload)[1][0])
    return ERROR_NAMES.get(code, str(code))


def login_raw(host, port, username, password="correct-horse-42", receive_buffer=0):
    """A raw connection that completed HELLO and REGISTER."""
    c = RawConnection(host, port, receive_buffer=receive_buffer)
    f = c.request(hello())
    assert f and f[0] == WELCOME, f"expected WELCOME, got {f}"
    f = c.request(register(username, password))
    assert f and f[0] == SESSION, f"expected SESSION, got {f and (hex(f[0]), f[3])}"
    return c
