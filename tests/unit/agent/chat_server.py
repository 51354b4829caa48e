"""A small chat-completions server for tests, run in its own process (loopback only).

Speaks ``POST /v1/chat/completions`` (JSON or SSE streaming, with tool calls) with a
fixed policy instead of a model, and reproduces the documented behaviour of real
servers. The **model name** picks the server it imitates: ``<flavor>[-ctxN][-strict]``.

Flavors (how each really sends things):

- ``openai`` (and any other name), ``vllm``, ``llamacpp``: streamed tool calls are
  numbered ``index`` 0, 1, 2...; the first delta of a call carries its id and name,
  its arguments follow in fragments (OpenAI's documented stream; vLLM and
  llama.cpp's server do the same).
- ``ollama``: every call of a turn comes whole in one delta, with its own id and
  ``index: 0`` (Ollama 0.20, ollama/ollama#15457); ``ollama-noindex`` omits
  ``index`` altogether (older releases).
- reasoning: ``vllm`` and ``ollama`` send it as ``reasoning`` (vLLM since 0.9),
  ``llamacpp`` and ``openai`` as ``reasoning_content`` (DeepSeek's name).
- ``-ctxN``: a context of N tokens (4 characters a token); a longer request is refused
  with HTTP 400 in the flavor's words: vLLM's "This model's maximum context length
  is N tokens...", llama.cpp's ``exceed_context_size_error``, OpenAI's
  ``context_length_exceeded``.
- ``-strict``: a chat template that needs user and assistant turns to alternate
  (vLLM with Mistral or Gemma templates): two user messages in a row -> HTTP 400
  "Conversation roles must alternate user/assistant/user/assistant/...".

Policy, read from the last message:

- a tool result -> answers "Order status: <status>." (or the results as JSON);
  except with ``tool_choice: required``, where it must call a tool again (as vLLM's
  guided decoding forces), or when the prompt said ``[always-call]``;
- ``[calls] [{"name": ..., "arguments": {...}}, ...]`` in the prompt -> those calls
  (only the first when ``parallel_tool_calls`` is false, as OpenAI does);
  ``[object-args]`` sends their arguments as JSON objects, not strings;
  ``[text-call tagged]`` writes them as ``<tool_call>{...}</tool_call>`` text (Qwen and
  Hermes templates without a tool parser), ``[text-call bare]`` as a bare JSON object
  (Llama 3.x), ``[text-call python_tag]`` as ``<|python_tag|>`` and JSON objects joined by
  ``; `` (Llama 3.1), ``[text-call mistral]`` as ``[TOOL_CALLS] [{...}, ...]`` (Mistral
  tokenizers before v11), ``[text-call mistral11]`` as ``[TOOL_CALLS]name{...}`` per call
  (v11 and later), ``[text-call function-tag]`` as ``<function=name>{...}</function>`` (a
  Llama 3.1 format nobody parses here); ``[think]`` puts ``<think>...</think>`` before the
  content (a reasoning model served without a reasoning parser); ``[drop-stream-calls]`` streams ``finish_reason: tool_calls`` without the
  calls (Ollama's streaming gap), while a non-streamed request gets them;
- ``[reasoning-only]`` -> ``reasoning`` and ``content: null``;
- ``[truncate]`` -> a few words and ``finish_reason: length``;
- ``[stall]`` -> one chunk, then silence for STALL_SECONDS;
- ``[fail N]`` (or "fail") -> HTTP N (500); "bad json" -> a call whose arguments are not JSON;
- an order mentioned and tools offered -> ``fetch_order_details`` with the order id;
- otherwise "Hello from the test server."

``GET /requests`` returns every request body received (and its Authorization
header), so a test can check what the client sent. Prints its port on stdout.

``[hold N]`` in the prompt: the first N requests with that prompt are never answered,
and ``holding: <prompt>`` is printed on stdout as each arrives, so a test knows that a
case waits on its model (and can kill the process that waits). ``--delay SECONDS``
answers every request that much later: a model's latency, for the bench.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

RECEIVED: list[dict] = []
STALL_SECONDS = 60
HOLD_SECONDS = 3600  # a held request is answered only if the client is still there after this
DELAY = 0.0  # seconds before each answer (--delay)
HELD: Counter[str] = Counter()  # requests held, by prompt
_COUNTING = threading.Lock()
THINKING = "<think>The user wants an order; I will look it up.</think>\n\n"


class Flavor:
    def __init__(self, model: str) -> None:
        parts = (model or "openai").split("-")
        self.name = parts[0]
        self.no_index = "noindex" in parts
        self.strict = "strict" in parts
        context = next((p for p in parts if re.fullmatch(r"ctx\d+", p)), None)
        self.context = int(context[3:]) if context else None
        self.reasoning_field = "reasoning" if self.name in ("vllm", "ollama") else "reasoning_content"

    def context_error(self, tokens: int) -> dict:
        if self.name == "llamacpp":
            return {"error": {"code": 400, "type": "exceed_context_size_error", "n_prompt_tokens": tokens,
                              "n_ctx": self.context,
                              "message": f"request ({tokens} tokens) exceeds the available context size "
                                         f"({self.context} tokens), try increasing it"}}
        if self.name == "vllm":
            return {"object": "error", "type": "BadRequestError", "param": None, "code": 400,
                    "message": f"This model's maximum context length is {self.context} tokens. However, you "
                               f"requested {tokens} tokens in the messages, Please reduce the length of the messages."}
        return {"error": {"code": "context_length_exceeded", "type": "invalid_request_error", "param": "messages",
                          "message": f"This model's maximum context length is {self.context} tokens. However, "
                                     f"your messages resulted in {tokens} tokens."}}


def summarize(messages: list[dict]) -> str:
    results = []
    for message in reversed(messages):
        if message.get("role") != "tool":
            break
        results.insert(0, json.loads(message.get("content") or "{}"))
    if len(results) == 1:
        result = results[0]
        status = result.get("status") or result.get("error", {}).get("code_name", "unknown")
        return f"Order status: {status}."
    return "Results: " + json.dumps(results, sort_keys=True)


def directive_calls(prompt: str) -> list[dict] | None:
    match = re.search(r"\[calls\]\s*(\[.*\])", prompt, re.S)
    if not match:
        return None
    return [{"id": f"call_srv_{i + 1}", "name": c["name"], "arguments": c.get("arguments", {})}
            for i, c in enumerate(json.loads(match.group(1)))]


def decide(body: dict) -> tuple[str | None, list[dict]]:
    messages = body.get("messages", [])
    last = messages[-1] if messages else {}
    tools = [t["function"]["name"] for t in body.get("tools", [])]
    if last.get("role") == "tool":
        asked = next((m.get("content") or "" for m in reversed(messages) if m.get("role") == "user"), "")
        if tools and (body.get("tool_choice") == "required" or "[always-call]" in asked):
            return None, [{"id": f"call_again_{len(messages)}", "name": tools[0], "arguments": {"orderId": "ORD-8492"}}]
        return summarize(messages), []
    prompt = last.get("content") or ""
    calls = directive_calls(prompt)
    if calls is not None:
        if body.get("parallel_tool_calls") is False:
            calls = calls[:1]
        return None, calls
    if tools and "bad json" in prompt:
        return None, [{"id": "call_bad", "name": tools[0], "arguments": '{"orderId": '}]
    if tools and ("order" in prompt.lower() or body.get("tool_choice") == "required"):
        name = "fetch_order_details" if "fetch_order_details" in tools else tools[0]
        match = re.search(r"ORD-\d+", prompt)
        return None, [{"id": "call_srv_1", "name": name, "arguments": {"orderId": match.group(0) if match else "ORD-8492"}}]
    return "Hello from the test server.", []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

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
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        RECEIVED.append({"body": body, "authorization": self.headers.get("Authorization")})
        flavor = Flavor(body.get("model", ""))
        messages = body.get("messages") or [{}]
        last = messages[-1]
        prompt = (last.get("content") or "") if last.get("role") == "user" else ""
        self._hold(prompt)
        time.sleep(DELAY)
        failure = re.search(r"\[fail (\d{3})\]", prompt)
        if failure or "fail" in prompt.split():
            status = int(failure.group(1)) if failure else 500
            self._json(status, {"error": {"message": "the test server was asked to fail", "type": "server_error"}})
            return
        if any(m.get("content") is None and not m.get("tool_calls") for m in messages):
            self._json(400, {"error": {"message": "Invalid value for 'content': expected a string, got null.",
                                       "type": "invalid_request_error"}})
            return
        if flavor.strict:
            roles = [m.get("role") for m in messages if m.get("role") in ("user", "assistant")]
            if any(a == b == "user" for a, b in zip(roles, roles[1:])):
                self._json(400, {"object": "error", "type": "BadRequestError", "code": 400,
                                 "message": "Conversation roles must alternate user/assistant/user/assistant/..."})
                return
        tokens = len(json.dumps(messages)) // 4
        if flavor.context is not None and tokens > flavor.context:
            self._json(400, flavor.context_error(tokens))
            return
        reply = Reply(body, flavor, prompt)
        if body.get("stream"):
            self._stream(body, reply)
        else:
            self._json(200, reply.completion())

    @staticmethod
    def _hold(prompt: str) -> None:
        hold = re.search(r"\[hold (\d+)\]", prompt)
        with _COUNTING:
            held = hold is not None and HELD[prompt] < int(hold.group(1))
            HELD[prompt] += held
        if held:
            print(f"holding: {prompt}", flush=True)
            time.sleep(HOLD_SECONDS)

    def _stream(self, body: dict, reply: "Reply") -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        for data in reply.chunks():
            if data is None:
                time.sleep(STALL_SECONDS)
                continue
            self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


class Reply:
    """One answer, as a whole completion or as the flavor's stream of chunks."""

    def __init__(self, body: dict, flavor: Flavor, prompt: str) -> None:
        self.body, self.flavor, self.prompt = body, flavor, prompt
        self.reasoning = None
        self.finish = None
        if "[reasoning-only]" in prompt:
            self.content, self.calls = None, []
            self.reasoning = "The user wants a haiku. I will think about it and answer nothing yet."
        elif "[truncate]" in prompt:
            self.content, self.calls, self.finish = "The answer is long and it gets", [], "length"
        else:
            self.content, self.calls = decide(body)
        self.text_calls = re.search(r"\[text-call ([\w-]+)\]", prompt)
        if self.text_calls and self.calls:
            self.content = self._as_text(self.calls, self.text_calls.group(1))
            self.calls = []
        if "[think]" in prompt:
            self.content = THINKING + (self.content or "")
        self.object_args = "[object-args]" in prompt
        if self.finish is None:
            self.finish = "tool_calls" if self.calls else "stop"

    @staticmethod
    def _as_text(calls: list[dict], style: str) -> str:
        if style == "tagged":
            return "".join(
                f"<tool_call>\n{json.dumps({'name': c['name'], 'arguments': c['arguments']})}\n</tool_call>" for c in calls
            )
        if style == "python_tag":
            return "<|python_tag|>" + "; ".join(json.dumps({"name": c["name"], "parameters": c["arguments"]}) for c in calls)
        if style == "mistral":
            return "[TOOL_CALLS] " + json.dumps([{"name": c["name"], "arguments": c["arguments"]} for c in calls])
        if style == "mistral11":
            return "".join(f"[TOOL_CALLS]{c['name']}{json.dumps(c['arguments'])}" for c in calls)
        if style == "function-tag":
            return "".join(f"<function={c['name']}>{json.dumps(c['arguments'])}</function>" for c in calls)
        (call,) = calls
        return json.dumps({"name": call["name"], "parameters": call["arguments"]})

    def _arguments(self, call: dict):
        arguments = call["arguments"]
        if self.object_args and isinstance(arguments, dict):
            return arguments
        return arguments if isinstance(arguments, str) else json.dumps(arguments)

    def completion(self) -> dict:
        message = {"role": "assistant", "content": self.content}
        if self.reasoning:
            message[self.flavor.reasoning_field] = self.reasoning
        if self.calls:
            message["tool_calls"] = [
                {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": self._arguments(c)}}
                for c in self.calls
            ]
        return {
            "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": self.body.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": self.finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }

    def _chunk(self, delta: dict, finish: str | None = None) -> dict:
        return {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": int(time.time()),
                "model": self.body.get("model"), "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    def chunks(self):
        """The SSE data objects in order; None means: stall here."""
        yield self._chunk({"role": "assistant", "content": ""})
        if self.reasoning:
            for piece in re.findall(r"\S+\s*", self.reasoning):
                yield self._chunk({self.flavor.reasoning_field: piece, "content": None})
        for piece in re.findall(r"\S+\s*", self.content or ""):
            yield self._chunk({"content": piece})
        if "[stall]" in self.prompt:
            yield None
        if "[drop-stream-calls]" not in self.prompt:
            yield from self._call_chunks()
        yield self._chunk({}, self.finish)

    def _call_chunks(self):
        for index, call in enumerate(self.calls):
            if self.flavor.name == "ollama":  # each call whole, all at index 0 (or none)
                delta = {"id": call["id"], "type": "function",
                         "function": {"name": call["name"], "arguments": self._arguments(call)}}
                if not self.flavor.no_index:
                    delta["index"] = 0
                yield self._chunk({"tool_calls": [delta]})
                continue
            yield self._chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                               "function": {"name": call["name"], "arguments": ""}}]})
            arguments = self._arguments(call)
            if isinstance(arguments, dict):
                yield self._chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]})
                continue
            for start in range(0, len(arguments), 7):  # arguments arrive in fragments
                yield self._chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments[start:start + 7]}}]})


@contextlib.contextmanager
def running() -> Iterator[str]:
    """This server in its own process, on loopback; yields its base URL and stops it after."""
    process = subprocess.Popen([sys.executable, __file__], stdout=subprocess.PIPE, text=True)
    try:
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=60)  # it ends at SIGTERM


def received(server: str) -> list[dict]:
    """Every request body the server got, in order."""
    with urllib.request.urlopen(f"{server}/requests", timeout=60) as response:
        return json.load(response)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.0, help="Seconds before each chat answer.")
    global DELAY
    DELAY = parser.parse_args().delay
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
