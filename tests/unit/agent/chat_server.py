"""A small chat-completions server for tests, run in its own process.

Speaks ``POST /v1/chat/completions`` (JSON or SSE streaming, with tool calls) the
way OpenAI-compatible servers do, with a fixed policy instead of a model:

- the last message is a tool result -> answers "Order status: <status>." from it;
- tools are offered and the user mentions an order -> calls ``fetch_order_details``
  (or the first tool) with the order id from the prompt;
- the prompt says "bad json" -> a tool call whose arguments are not JSON;
- the prompt says "fail" -> HTTP 500;
- otherwise -> "Hello from the test server."

``GET /requests`` returns every request body received (and its Authorization
header), so a test can check what the client sent. Prints its port on stdout.
"""

from __future__ import annotations

import json
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECEIVED: list[dict] = []


def decide(body: dict) -> tuple[str | None, list[dict]]:
    messages = body.get("messages", [])
    last = messages[-1] if messages else {}
    if last.get("role") == "tool":
        result = json.loads(last.get("content") or "{}")
        status = result.get("status") or result.get("error", {}).get("code_name", "unknown")
        return f"Order status: {status}.", []
    prompt = last.get("content") or ""
    tools = [t["function"]["name"] for t in body.get("tools", [])]
    if tools and "bad json" in prompt:
        return None, [{"id": "call_bad", "name": tools[0], "arguments": '{"orderId": '}]
    if tools and "order" in prompt.lower():
        name = "fetch_order_details" if "fetch_order_details" in tools else tools[0]
        match = re.search(r"ORD-\d+", prompt)
        args = json.dumps({"orderId": match.group(0) if match else "ORD-0"})
        return None, [{"id": "call_srv_1", "name": name, "arguments": args}]
    return "Hello from the test server.", []


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # quiet
        pass

    def _json(self, status: int, data) -> None:
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self) -> None:
        if self.path == "/requests":
            self._json(200, RECEIVED)
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        RECEIVED.append({"body": body, "authorization": self.headers.get("Authorization")})
        last = (body.get("messages") or [{}])[-1]
        if last.get("role") == "user" and "fail" in (last.get("content") or ""):
            self._json(500, {"error": {"message": "the test server was asked to fail", "type": "server_error"}})
            return
        content, calls = decide(body)
        if body.get("stream"):
            self._stream(body, content, calls)
        else:
            message = {"role": "assistant", "content": content}
            if calls:
                message["tool_calls"] = [
                    {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                    for c in calls
                ]
            self._json(200, {
                "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": body.get("model"),
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            })

    def _stream(self, body: dict, content: str | None, calls: list[dict]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

        def chunk(delta: dict, finish: str | None = None) -> None:
            data = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": int(time.time()),
                    "model": body.get("model"), "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()

        chunk({"role": "assistant", "content": ""})
        for piece in re.findall(r"\S+\s*", content or ""):
            chunk({"content": piece})
        for index, call in enumerate(calls):
            chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                   "function": {"name": call["name"], "arguments": ""}}]})
            arguments = call["arguments"]
            for start in range(0, len(arguments), 7):  # arguments arrive in fragments
                chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments[start:start + 7]}}]})
        chunk({}, "tool_calls" if calls else "stop")
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
