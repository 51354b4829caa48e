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
- ``llama_cpp_python``: llama-cpp-python's server with ``--chat_format chatml-function-calling``
  (llama_cpp/llama_chat_format.py, 0.3.x), as its source does it: without ``tool_choice`` (or
  with ``none``) the tools are left out of the prompt, so the model answers as if it had none;
  with ``tool_choice: auto`` and ``stream: true``, a turn where the model calls is HTTP 200 and
  an empty stream (the handler raises "Automatic streaming tool choice is not supported" after
  the response began); the prompt is rendered with HTML autoescape (``"`` -> ``&#34;``) and
  without the ``tool`` role, so tool results never reach the model, and ``usage.prompt_tokens``
  counts that prompt, the tools its template writes into the system message included;
  ``max_tokens`` is ignored for the arguments of automatic calls (``max_tokens=None`` in its
  handler), so arguments that run on (``[runaway]``) fill the context, ``usage.completion_tokens``
  counting them past ``max_tokens``, and the next request, which carries them, is HTTP 400 "This
  model's maximum context length is N tokens. However, you requested M tokens (P in the
  messages, C in the completion)..."; ``[calls-run-on]``: the handler generates call after call
  into its own prompt until it passes the context, and that same request is HTTP 400 with the
  tokens it counted (far more than were sent).
- ``-notools``: a model served without tool support, refused in the server's words when a
  request carries tools: Ollama "registry.ollama.ai/library/NAME does not support tools", vLLM
  '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
  llama.cpp "tools param requires --jinja flag".

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
- ``[copy-call]`` -> the conversation's last call again, its string values as the prompt shows
  them (``llama_cpp_python``: with their JSON quotes, HTML-escaped: ``&#34;ORD-8492&#34;``);
- ``[runaway]`` -> a call whose arguments never close: they run to ``max_tokens`` (or the
  context) and the answer ends with ``finish_reason: length``; ``llama_cpp_python``'s grammar
  keeps them JSON, one string that runs on until the context is full;
- ``[reasoning-only]`` -> ``reasoning`` and ``content: null``;
- ``[truncate]`` -> a few words and ``finish_reason: length``;
- ``[stall]`` -> one chunk, then silence for STALL_SECONDS;
- ``[fail N]`` (or "fail") -> HTTP N (500), with ``retry-after-ms: 20`` as OpenAI's API sends it, so
  that the OpenAI SDK's retries do not wait its own backoff (0.5 s, doubling); "bad json" -> a call whose arguments are not JSON;
- ``[answers] ["a", "b", ...]`` (a JSON list) in a system or user message -> the n-th of them, n being
  the number of assistant messages so far (the last one once they run out): a scripted party in a
  conversation, such as a simulated user whose scenario carries the list, or a judge's verdict;
- an order mentioned and tools offered -> ``fetch_order_details`` with the order id;
- otherwise "Hello from the test server."

A request with droidsim's judge instructions (sim/eval/judge.py) is answered by a scripted
judge, picked by the model's name (``judge-careful``, ``judge-yes``, ``judge-junk``:
chat_judge.py); ``--judge-key PATH`` gives the careful one what each reply's words do.

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
JUDGE_KEY: dict[str, str] = {}  # a reply's text -> what its words do, for the careful judge (--judge-key)
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
        self.chatml_function_calling = self.name == "llama_cpp_python"
        self.no_tools = "notools" in parts

    def no_tools_error(self) -> dict:
        """How a server without tool support for the model refuses a request with tools."""
        if self.name == "ollama":
            return {"error": {"message": "registry.ollama.ai/library/gemma:2b does not support tools",
                              "type": "invalid_request_error", "param": None, "code": None}}
        if self.name == "vllm":
            return {"object": "error", "type": "BadRequestError", "param": None, "code": 400,
                    "message": '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'}
        return {"error": {"code": 500, "type": "server_error", "message": "tools param requires --jinja flag"}}

    def sees_tools(self, body: dict) -> bool:
        """chatml-function-calling renders the tools only when tool_choice is given and not "none"."""
        if self.chatml_function_calling:
            return body.get("tool_choice") not in (None, "none")
        return True

    def prompt(self, messages: list[dict], tools: list | None = None) -> str:
        """What the model reads: chatml-function-calling's template (no tool role, HTML-escaped),
        or the messages as JSON for the others."""
        if not self.chatml_function_calling:
            return json.dumps(messages)
        parts = [f"<|im_start|>system\nfunctions: {json.dumps(tools)}<|im_end|>"] if tools else []  # tojson: not escaped
        for message in messages:
            if message.get("role") == "tool":
                continue  # the template has no branch for it
            text = message.get("content") or ""
            for call in message.get("tool_calls") or []:
                text += f"functions.{call['function']['name']}:\n{call['function']['arguments']}"
            parts.append(f"<|im_start|>{message.get('role')}\n{escape(text)}<|im_end|>")
        return "\n".join(parts)

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
        if self.chatml_function_calling:  # llama_cpp/server/errors.py, context_length_exceeded
            return {"error": {"code": "context_length_exceeded", "type": "invalid_request_error", "param": "messages",
                              "message": f"This model's maximum context length is {self.context} tokens. However, "
                                         f"you requested {tokens} tokens ({tokens} in the messages, None in the "
                                         "completion). Please reduce the length of the messages or completion."}}
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


def is_judge_request(body: dict) -> bool:
    """A request with droidsim's judge instructions (sim/eval/judge.py)."""
    system = next((m.get("content") or "" for m in body.get("messages") or [] if m.get("role") == "system"), "")
    return system.startswith("You check what an assistant told its user")


def directive_calls(prompt: str) -> list[dict] | None:
    match = re.search(r"\[calls\]\s*(\[.*\])", prompt, re.S)
    if not match:
        return None
    return [{"id": f"call_srv_{i + 1}", "name": c["name"], "arguments": c.get("arguments", {})}
            for i, c in enumerate(json.loads(match.group(1)))]


def scripted_answer(messages: list[dict]) -> str | None:
    """The answer an ``[answers] [...]`` list in a system or user message gives at this point."""
    for message in messages:
        text = message.get("content") or "" if message.get("role") in ("system", "user") else ""
        at = text.find("[answers]")
        if at >= 0:
            answers, _ = json.JSONDecoder().raw_decode(text[at + len("[answers]"):].lstrip())
            said = sum(m.get("role") == "assistant" for m in messages)
            return answers[min(said, len(answers) - 1)]
    return None


def decide(body: dict, flavor: "Flavor") -> tuple[str | None, list[dict]]:
    messages = body.get("messages", [])
    answer = scripted_answer(messages)
    if answer is not None:
        return answer, []
    last = messages[-1] if messages else {}
    tools = [t["function"]["name"] for t in body.get("tools", [])] if flavor.sees_tools(body) else []
    if last.get("role") == "tool":
        asked = next((m.get("content") or "" for m in reversed(messages) if m.get("role") == "user"), "")
        if tools and (body.get("tool_choice") == "required" or "[always-call]" in asked):
            return None, [{"id": f"call_again_{len(messages)}", "name": tools[0], "arguments": {"orderId": "ORD-8492"}}]
        if flavor.chatml_function_calling:  # its prompt has no tool results to summarize
            return "I have looked that up for you.", []
        return summarize(messages), []
    prompt = last.get("content") or ""
    if tools and "[copy-call]" in prompt:
        return None, [copied_call(messages, flavor)]
    if tools and "[runaway]" in prompt:
        name = "fetch_order_details" if "fetch_order_details" in tools else tools[0]
        return None, [{"id": "call_runaway", "name": name, "arguments": RUNAWAY}]
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


def escape(text: str) -> str:
    """HTML escaping as Jinja's autoescape (markupsafe) does it: " becomes &#34;, ' becomes &#39;."""
    for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;"), ("'", "&#39;")):
        text = text.replace(char, entity)
    return text


RUNAWAY = '{"orderId": "ORD-8492'  # arguments that never close; the reply adds to them until it stops


def copied_call(messages: list[dict], flavor: Flavor) -> dict:
    """The conversation's last call, its string values copied as the model read them in its prompt."""
    call = next(c for m in reversed(messages) for c in reversed(m.get("tool_calls") or []))
    arguments = call["function"]["arguments"]
    arguments = json.loads(arguments) if isinstance(arguments, str) else arguments
    if flavor.chatml_function_calling:
        arguments = {k: escape(json.dumps(v)) if isinstance(v, str) else v for k, v in arguments.items()}
    return {"id": "call_copy", "name": call["function"]["name"], "arguments": arguments}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: with Nagle's algorithm on, the body of every answer on a
    # kept-alive connection waits for the client's delayed ACK (40 ms on Linux).
    disable_nagle_algorithm = True

    def log_message(self, *args) -> None:  # quiet
        pass

    def _json(self, status: int, data, headers: dict[str, str] | None = None) -> None:
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
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
        if is_judge_request(body):  # before the prompt's directives: a reply may well say "fail"
            import chat_judge  # beside this file (the server runs as a script); it loads the project's eval

            self._json(200, {"id": "chatcmpl-judge", "object": "chat.completion", "created": int(time.time()),
                             "model": body.get("model"), "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                 "role": "assistant", "content": chat_judge.answer(body.get("model", ""), body, JUDGE_KEY)}}]})
            return
        flavor = Flavor(body.get("model", ""))
        messages = body.get("messages") or [{}]
        last = messages[-1]
        prompt = (last.get("content") or "") if last.get("role") == "user" else ""
        self._hold(prompt)
        time.sleep(DELAY)
        failure = re.search(r"\[fail (\d{3})\]", prompt)
        if failure or "fail" in prompt.split():
            status = int(failure.group(1)) if failure else 500
            self._json(status, {"error": {"message": "the test server was asked to fail", "type": "server_error"}},
                       {"retry-after-ms": "20"})
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
        if flavor.no_tools and body.get("tools"):
            self._json(400 if flavor.name != "llamacpp" else 500, flavor.no_tools_error())
            return
        tokens = len(flavor.prompt(messages, body.get("tools") if flavor.sees_tools(body) else None)) // 4
        if flavor.context is not None and tokens > flavor.context:
            self._json(400, flavor.context_error(tokens))
            return
        if flavor.chatml_function_calling and "[calls-run-on]" in prompt and body.get("tools"):
            # Each call the handler generates goes into its own prompt, until it passes the context.
            self._json(400, flavor.context_error((flavor.context or 2048) + 1 + tokens // 10))
            return
        reply = Reply(body, flavor, prompt, tokens)
        if body.get("stream") and flavor.chatml_function_calling and reply.calls:
            self._empty_stream()  # "Automatic streaming tool choice is not supported", after the 200
        elif body.get("stream"):
            self._stream(body, reply)
        else:
            self._json(200, reply.completion())

    @staticmethod
    def _hold(prompt: str) -> None:
        hold = re.search(r"\[hold (\d+)\]", prompt)
        with _COUNTING:  # the line too: print writes the text and its newline apart, and two held at once interleaved
            held = hold is not None and HELD[prompt] < int(hold.group(1))
            HELD[prompt] += held
            if held:
                print(f"holding: {prompt}", flush=True)
        if held:
            time.sleep(HOLD_SECONDS)

    def _empty_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

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

    def __init__(self, body: dict, flavor: Flavor, prompt: str, prompt_tokens: int) -> None:
        self.body, self.flavor, self.prompt = body, flavor, prompt
        self.prompt_tokens = prompt_tokens  # as the server counts the prompt its template made
        self.reasoning = None
        self.finish = None
        if "[reasoning-only]" in prompt:
            self.content, self.calls = None, []
            self.reasoning = "The user wants a haiku. I will think about it and answer nothing yet."
        elif "[truncate]" in prompt:
            self.content, self.calls, self.finish = "The answer is long and it gets", [], "length"
        else:
            self.content, self.calls = decide(body, flavor)
        if any(c["arguments"] is RUNAWAY for c in self.calls):
            self._run_away(prompt_tokens)
        self.text_calls = re.search(r"\[text-call ([\w-]+)\]", prompt)
        if self.text_calls and self.calls:
            self.content = self._as_text(self.calls, self.text_calls.group(1))
            self.calls = []
        if "[think]" in prompt:
            self.content = THINKING + (self.content or "")
        self.object_args = "[object-args]" in prompt
        if self.finish is None:
            self.finish = "tool_calls" if self.calls else "stop"

    def _run_away(self, prompt_tokens: int) -> None:
        """Arguments that go on until the answer's limit: max_tokens, else what the context leaves
        (llama.cpp's default n_ctx, 2048, when the name gives none). chatml-function-calling ignores
        max_tokens for automatic calls, and its grammar closes the JSON when the context is full."""
        (call,) = self.calls
        left = max((self.flavor.context or 2048) - prompt_tokens, 1)
        if self.flavor.chatml_function_calling:
            call["arguments"] = json.dumps({"orderId": "ORD-8492" + " and so on" * (left * 4 // 10)})
            return
        call["arguments"] = RUNAWAY + " and so on" * ((self.body.get("max_tokens") or left) * 4 // 10)
        self.finish = "length"

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
            "usage": {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                      "total_tokens": self.prompt_tokens + self.completion_tokens},
        }

    @property
    def completion_tokens(self) -> int:
        """What the model wrote, as the server counts it: the text and each call as its template
        writes calls (chatml-function-calling: ``functions.NAME:\\nARGUMENTS``)."""
        written = (self.content or "") + (self.reasoning or "")
        for call in self.calls:
            arguments = call["arguments"] if isinstance(call["arguments"], str) else json.dumps(call["arguments"])
            written += (f"functions.{call['name']}:\n{arguments}" if self.flavor.chatml_function_calling
                        else json.dumps({"name": call["name"], "arguments": arguments}))
        bound = None if self.flavor.chatml_function_calling else self.body.get("max_tokens")  # it ignores it
        return min(max(1, len(written) // 4), bound or len(written))

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
def running(*args: str) -> Iterator[str]:
    """This server in its own process, on loopback (``args``: its options); yields its base URL and
    stops it after."""
    process = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True)
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
    parser.add_argument("--judge-key", help="JSON file: a reply's text -> what its words do (chat_judge.py).")
    global DELAY, JUDGE_KEY
    args = parser.parse_args()
    DELAY = args.delay
    if args.judge_key:
        with open(args.judge_key, encoding="utf-8") as key:
            JUDGE_KEY = json.load(key)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
