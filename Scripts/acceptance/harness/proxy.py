"""A TCP proxy in front of the server that the test controls frame by frame.

It reads whole frames (u32 length BE, u16 type, u8 flags, u8 reserved, u32 request id,
payload) in both directions, so a test can cut a connection in the middle of a client frame,
or drop the server's SEND_ACK and close (the server committed, the client never heard)."""
import random
import socket
import struct
import threading
import time

SEND = 0x0401
SEND_ACK = 0x0402


class Proxy:
    def __init__(self, target_host, target_port):
        self.target = (target_host, target_port)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.conns = []
        self.paused = threading.Event()
        self.paused.set()  # set = flowing
        self.delay = 0.0          # seconds added before forwarding each frame
        self.rate = 0             # bytes per second, 0 = unlimited
        self.stall_chance = 0.0   # chance per frame of a retransmission-like stall
        self.stall_seconds = 0.0
        self.refuse = False       # accept and close at once: the server looks unreachable
        self._cut_c2s = None      # (frame type, bytes to forward) armed once
        self._drop_s2c = None     # frame type armed once
        self.triggered = threading.Event()
        self.connections_seen = 0
        self.random = random.Random(1234)
        self.closed = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    @property
    def address(self):
        return f"127.0.0.1:{self.port}"

    def retarget(self, host, port):
        self.target = (host, port)

    # --- controls ---------------------------------------------------------------------------
    def cut_client_frame(self, frame_type=SEND, keep_bytes=10):
        """The next client frame of this type: forward only its first keep_bytes, then close both sides."""
        self.triggered.clear()
        self._cut_c2s = (frame_type, keep_bytes)

    def drop_server_frame(self, frame_type=SEND_ACK):
        """The next server frame of this type is not forwarded; both sides are closed instead."""
        self.triggered.clear()
        self._drop_s2c = frame_type

    def pause(self):
        self.paused.clear()

    def resume(self):
        self.paused.set()

    def cut_all(self):
        with self.lock:
            conns, self.conns = self.conns, []
        for pair in conns:
            _close_pair(pair)

    def close(self):
        self.closed = True
        self.resume()
        try:
            self.listener.close()
        except OSError:
            pass
        self.cut_all()

    # --- forwarding -------------------------------------------------------------------------
    def _accept_loop(self):
        while not self.closed:
            try:
                down, _ = self.listener.accept()
            except OSError:
                return
            self.connections_seen += 1
            if self.refuse:
                down.close()
                continue
            try:
                up = socket.create_connection(self.target, timeout=5)
                up.settimeout(None)
            except OSError:
                down.close()
                continue
            pair = (down, up)
            with self.lock:
                self.conns.append(pair)
            threading.Thread(target=self._pump, args=(down, up, pair, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(up, down, pair, False), daemon=True).start()

    def _pump(self, src, dst, pair, client_to_server):
        buf = b""
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                buf += data
                while len(buf) >= 12:
                    length = struct.unpack(">I", buf[:4])[0]
                    if length > (1 << 24):  # not our protocol (or a bad-input test): just forward
                        self._forward(dst, buf)
                        buf = b""
                        break
                    if len(buf) < 4 + length:
                        break
                    frame, buf = buf[:4 + length], buf[4 + length:]
                    ftype = struct.unpack(">H", frame[4:6])[0]
                    if client_to_server and self._cut_c2s and self._cut_c2s[0] == ftype:
                        keep = self._cut_c2s[1]
                        self._cut_c2s = None
                        dst.sendall(frame[:keep])
                        self.triggered.set()
                        raise ConnectionAbortedError
                    if not client_to_server and self._drop_s2c == ftype:
                        self._drop_s2c = None
                        self.triggered.set()
                        raise ConnectionAbortedError
                    self._forward(dst, frame)
        except OSError:
            pass
        finally:
            _close_pair(pair)
            with self.lock:
                if pair in self.conns:
                    self.conns.remove(pair)

    def _forward(self, dst, data):
        self.paused.wait()
        # Emulated link delay, bandwidth and loss stalls: these sleeps are the network, not
        # synchronisation.
        pause = self.delay
        if self.rate:
            pause += len(data) / self.rate
        if self.stall_chance and self.random.random() < self.stall_chance:
            pause += self.stall_seconds
        if pause:
            time.sleep(pause)
        dst.sendall(data)


def _close_pair(pair):
    for s in pair:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            s.close()
        except OSError:
            pass
