#!/usr/bin/env python3
"""A chat-completions endpoint that misbehaves on purpose, for the provider engine's tests.

Listens on 127.0.0.1, port 0, and prints the port on the first line of stdout. The first path
segment picks the behaviour: POST /<mode>/v1/chat/completions, where <mode> is NAME or NAME_ARG
(e.g. good, slow_3, flaky_t1). GET /_requests lists every request seen (path, Authorization
header, JSON body); GET /_stats/<mode> gives the most requests of that mode handled at once. Exits when stdin closes,
so a test that dies leaves no server behind. Standard library only.
"""
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
REQUESTS = []
COUNTS = {}
ACTIVE = {}  # mode segment -> [now, most]

JUDGE = {"actions": [{"what": "tag the 2.3 hotfix branch", "who": "maya", "due": "by 5pm", "message": 1},
                     {"what": "post the release notes", "who": "recipient", "due": "5pm", "message": 1}],
         "clarity_flag": False, "clarity_kind": None, "clarity_reason": None,
         "tone_flag": False, "tone_kind": None, "tone_reason": None, "decision": None}
SUMMARY = {"summary": "Ship on Friday; Li updates the dashboard by Monday; rollout owner still open.",
           "key_points": ["ship on Friday", "Li updates the dashboard by Monday"],
           "decisions": [{"text": "ship on Friday", "message": "LAST"}],
           "actions": [{"what": "update the dashboard", "who": "li", "due": "Monday", "message": "LAST"}],
           "open_questions": ["who owns the rollout?"]}
REWRITE = {"text": "Could you tag the 2.3 hotfix branch and post the notes by 5pm, please?"}


def task_of(body):
    user = body["messages"][-1]["content"]
    if user.startswith("Task: judge"):
        return "judge"
    if user.startswith("Task: summarise"):
        return "summary"
    if user.startswith("Task: extract"):
        return "extract"
    return "rewrite"


def last_index(body):
    """The highest message number shown in the prompt (the lines look like "[12] li: ...")."""
    best = 0
    for line in body["messages"][-1]["content"].splitlines():
        if line.startswith("[") and "]" in line:
            try:
                best = max(best, int(line[1:line.index("]")]))
            except ValueError:
                pass
    return best


def extract(body):
    """Items for the messages to extract from: an action for each line that says "please" (owner
    "everyone"), a decision for each "Decision:" line, and one citing a message never shown."""
    lines = body["messages"][-1]["content"].split("Messages to extract from, oldest first:\n", 1)[-1].splitlines()
    actions, decisions = [{"what": "invent a task", "who": "everyone", "message": 999}], []
    for line in lines:
        number, _, rest = line[1:].partition("] ")
        text = rest.partition(": ")[2].lower()
        if "please" in text:
            actions.append({"what": "follow up on message " + number, "who": "everyone", "due": None, "message": int(number)})
        if text.startswith("decision:"):
            decisions.append({"text": "model decision " + number, "message": int(number)})
    return {"actions": actions, "decisions": decisions}


def answer(mode, body):
    task = task_of(body)
    if task == "extract":
        return {"summary": "nothing here"} if mode == "missing" else extract(body)
    if mode == "missing":
        return {"judge": {"actions": [{"what": "post the release notes"}]},
                "summary": {"key_points": ["ship on Friday"]}, "rewrite": {"txt": "?"}}[task]
    if mode == "unknown":
        return {"judge": {"actions": [{"what": "deploy the cluster", "who": "maya", "message": 99},
                                      {"what": "call the vendor", "who": "zed", "message": 1},
                                      {"what": "post the release notes", "who": "maya", "message": 1}],
                          "clarity_flag": False, "tone_flag": False, "decision": None},
                "summary": {"summary": "s", "decisions": [{"text": "made up", "message": 99}, {"text": "ship on Friday", "message": 0}],
                            "actions": [{"what": "invent things", "who": "li", "message": 99},
                                        {"what": "call the vendor", "who": "zed", "message": 0},
                                        {"what": "update the dashboard", "who": "Li", "message": 0}],
                            "open_questions": [{"text": "ghost question", "message": -1}]}, "rewrite": REWRITE}[task]
    if mode == "wrongtypes":
        return {"judge": {"actions": {"what": "post the release notes", "who": "@Maya", "due": 5, "message": "1"},
                          "clarity_flag": "yes", "clarity_kind": "Pronoun", "clarity_reason": "\"it\" has no antecedent",
                          "tone_flag": "false", "decision": False},
                "summary": {"summary": ["ship on Friday", "Li updates the dashboard"], "actions": "nothing",
                            "decisions": "ship on Friday", "open_questions": None}, "rewrite": {"text": 42}}[task]
    result = {"judge": JUDGE, "summary": SUMMARY, "rewrite": REWRITE}[task]
    return json.loads(json.dumps(result).replace('"LAST"', str(last_index(body))))


def envelope(content):
    return json.dumps({"id": "x", "object": "chat.completion", "model": "fake",
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": content}}]}).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_GET(self):
        with LOCK:
            if self.path.startswith("/_stats/"):
                data = {"most_at_once": ACTIVE.get(self.path[len("/_stats/"):], [0, 0])[1]}
            else:
                data = {"/_requests": REQUESTS}.get(self.path)
        self.send(200 if data is not None else 404, json.dumps(data).encode())

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        segment = self.path.strip("/").split("/")[0]
        name, _, arg = segment.partition("_")
        with LOCK:
            REQUESTS.append({"path": self.path, "authorization": self.headers.get("Authorization"), "body": body})
            COUNTS[segment] = COUNTS.get(segment, 0) + 1
            count = COUNTS[segment]
            active = ACTIVE.setdefault(segment, [0, 0])
            active[0] += 1
            active[1] = max(active[1], active[0])
        try:
            self.behave(name, arg, count, body)
        finally:
            with LOCK:
                ACTIVE[segment][0] -= 1

    def behave(self, name, arg, count, body):
        if name == "slow":
            time.sleep(float(arg or "3"))
            name = "good"
        if name in ("429", "500", "401"):
            return self.send(int(name), b'{"error": {"message": "nope"}}')
        if name == "flaky" and count % 2 == 1:
            return self.send(500, b'{"error": "overloaded"}')
        if name == "noformat" and "response_format" in body:
            return self.send(400, b'{"error": "response_format is not supported"}')
        if name == "malformed":
            return self.send(200, envelope("I think this message is fine, nothing to add."))
        if name == "notjson":
            return self.send(200, b"<html>502 Bad Gateway</html>")
        if name in ("stall", "closed", "trickle"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "5000")
            self.end_headers()
            self.wfile.write(b'{"id": "x", "choices": [')
            self.wfile.flush()
            if name == "stall":
                time.sleep(60)
            elif name == "trickle":
                for _ in range(600):  # a byte every 0.2 s: never idle long enough for an idle timeout
                    time.sleep(0.2)
                    self.wfile.write(b" ")
                    self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        obj = answer(name, body)
        text = json.dumps(obj, ensure_ascii=False)
        if name == "fenced":
            text = "Sure! Here is the analysis {as asked}:\n```json\n" + json.dumps(obj, indent=2) + "\n```\nHope this helps."
        self.send(200, envelope(text))


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (the engine's deadline) breaks the pipe: expected, not news.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the test closes our stdin or dies


if __name__ == "__main__":
    main()
