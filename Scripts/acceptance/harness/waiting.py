"""Deadline-based waiting: every test synchronises on a condition, never on a bare sleep."""
import threading
import time


class Timeout(AssertionError):
    """A condition did not hold before its deadline; the message says what was awaited."""


class EventLog:
    """Lines read by a background thread, with a condition variable so readers can wait."""

    def __init__(self):
        self._items = []
        self._cond = threading.Condition()
        self.closed = False

    def append(self, item):
        with self._cond:
            self._items.append(item)
            self._cond.notify_all()

    def close(self):
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def __len__(self):
        with self._cond:
            return len(self._items)

    def snapshot(self, since=0):
        with self._cond:
            return list(self._items[since:])

    def wait_for(self, predicate, timeout, since=0, what="condition"):
        """The first item at index >= since that satisfies predicate; Timeout after `timeout` s."""
        deadline = time.monotonic() + timeout
        index = since
        with self._cond:
            while True:
                while index < len(self._items):
                    item = self._items[index]
                    index += 1
                    if predicate(item):
                        return item
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise Timeout(f"timed out after {timeout}s waiting for {what}")
                if self.closed:
                    raise Timeout(f"stream closed while waiting for {what}")
                self._cond.wait(min(remaining, 0.5))

    def wait_count(self, predicate, count, timeout, since=0, what="items"):
        """Waits until at least `count` items from `since` satisfy predicate; returns them."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = [i for i in self._items[since:] if predicate(i)]
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise Timeout(f"timed out after {timeout}s: {len(found)}/{count} {what}")
                if self.closed:
                    raise Timeout(f"stream closed with {len(found)}/{count} {what}")
                self._cond.wait(min(remaining, 0.5))


def wait_until(predicate, timeout, what="condition", interval=0.05):
    """Polls a cheap predicate (a file exists, a process exited) until it holds or the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise Timeout(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)
