package agents

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// toolCall is the one tool call the model server asks for: the agent's shell
// tool and its arguments.
type toolCall struct {
	Name string         // the tool as the CLI offers it: Bash, run_shell_command, exec_command, bash
	Args map[string]any // the tool's input: {"command": ...} or {"cmd": ...}
}

// exchange is one request the CLI made, as the model server logged it.
type exchange struct {
	Method, Path string
	Body         []byte
	ToolResults  []string // every tool result the request carries, as text
	Answer       string   // what the server answered: tool-call, text, json, tokens, models, not-found
}

// modelServer is a scripted model on 127.0.0.1 that speaks the APIs of the
// CLIs under test, with SSE streaming where they ask for it:
//
//	Anthropic  POST /v1/messages, /v1/messages/count_tokens          (Claude Code; Copilot CLI with type anthropic)
//	Gemini     POST /v1beta/models/M:generateContent, :streamGenerateContent?alt=sse, :countTokens
//	OpenAI     POST /v1/responses (SSE), GET /v1/models               (Codex)
//	OpenAI     POST /v1/chat/completions (SSE)                        (Copilot CLI with type openai)
//
// A request that offers call's tool and carries no tool result yet is
// answered with the tool call (Anthropic, Gemini: one with N tool results
// with then[N-1], when there is one); every other request with text that ends the turn (a JSON
// call, like Gemini's router, with JSON that fits its schema).
type modelServer struct {
	t    testing.TB
	srv  *httptest.Server
	call toolCall
	// then are the tool calls after the first, one per tool result the
	// conversation already carries (set before the CLI starts; the
	// Anthropic and Gemini APIs, for the interactive sessions).
	then []toolCall

	mu   sync.Mutex
	log  []exchange
	seen chan struct{} // a token per request, for waiters
}

// finalText ends every turn; the tests look for it in the CLI's output.
const finalText = "E2E-TURN-DONE"

func newModelServer(t testing.TB, call toolCall) *modelServer {
	m := &modelServer{t: t, call: call, seen: make(chan struct{}, 1024)}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("model server: %v", err)
	}
	m.srv = httptest.NewUnstartedServer(http.HandlerFunc(m.serve))
	m.srv.Listener.Close()
	m.srv.Listener = ln
	m.srv.Start()
	t.Cleanup(m.srv.Close)
	return m
}

// URL is the server's base URL, http://127.0.0.1:PORT.
func (m *modelServer) URL() string { return m.srv.URL }

// next is the tool call for a request that carries results tool results,
// its number (1 for call) and whether there is one that the request offers.
func (m *modelServer) next(offered func(name string) bool, results int) (toolCall, int, bool) {
	c := m.call
	if results > 0 {
		if results > len(m.then) {
			return toolCall{}, 0, false
		}
		c = m.then[results-1]
	}
	return c, results + 1, offered(c.Name)
}

// Port is the server's TCP port.
func (m *modelServer) Port() int { return m.srv.Listener.Addr().(*net.TCPAddr).Port }

// Exchanges returns a copy of the log.
func (m *modelServer) Exchanges() []exchange {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]exchange(nil), m.log...)
}

// ToolResult returns the first tool result any request carried (the result
// of the one tool call), and whether there was one.
func (m *modelServer) ToolResult() (string, bool) {
	for _, e := range m.Exchanges() {
		if len(e.ToolResults) > 0 {
			return e.ToolResults[0], true
		}
	}
	return "", false
}

// ToolCalls counts the tool calls the server answered.
func (m *modelServer) ToolCalls() int {
	n := 0
	for _, e := range m.Exchanges() {
		if e.Answer == "tool-call" {
			n++
		}
	}
	return n
}

// Summary lists the exchanges, one a line, for failure messages.
func (m *modelServer) Summary() string {
	var b strings.Builder
	for i, e := range m.Exchanges() {
		fmt.Fprintf(&b, "  #%d %s %s -> %s", i, e.Method, e.Path, e.Answer)
		for _, r := range e.ToolResults {
			fmt.Fprintf(&b, "; tool result %q", clip(r, 400))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (m *modelServer) record(e exchange) {
	m.mu.Lock()
	m.log = append(m.log, e)
	m.mu.Unlock()
	select {
	case m.seen <- struct{}{}:
	default:
	}
}

func (m *modelServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	e := exchange{Method: r.Method, Path: r.URL.RequestURI(), Body: body}
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		e.Answer = "tokens"
		writeJSON(w, map[string]any{"input_tokens": 100})
	case r.Method == http.MethodPost && path == "/v1/messages":
		m.anthropic(w, body, &e)
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/v1beta/models/") && strings.HasSuffix(path, ":countTokens"):
		e.Answer = "tokens"
		writeJSON(w, map[string]any{"totalTokens": 100})
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/v1beta/models/") &&
		(strings.HasSuffix(path, ":generateContent") || strings.HasSuffix(path, ":streamGenerateContent")):
		m.gemini(w, body, strings.HasSuffix(path, ":streamGenerateContent"), &e)
	case r.Method == http.MethodPost && path == "/v1/responses":
		m.responses(w, body, &e)
	case r.Method == http.MethodPost && path == "/v1/chat/completions":
		m.chat(w, body, &e)
	case r.Method == http.MethodGet && path == "/v1/models":
		e.Answer = "models"
		writeJSON(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
	default:
		e.Answer = "not-found"
		http.Error(w, "not served by the e2e model server", http.StatusNotFound)
	}
	m.record(e)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events; an empty name writes data-only events.
type sse struct{ w http.ResponseWriter }

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

func (s sse) event(name string, data any) {
	b, _ := json.Marshal(data)
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s sse) raw(line string) {
	fmt.Fprintf(s.w, "%s\n\n", line)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func argsJSON(args map[string]any) string {
	b, _ := json.Marshal(args)
	return string(b)
}

// textOf renders a tool result's content: a string, a list of text blocks,
// or any other JSON as it came.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type, Text string
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

// --- Anthropic Messages API (https://docs.anthropic.com/en/api/messages-streaming)

func (m *modelServer) anthropic(w http.ResponseWriter, body []byte, e *exchange) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Tools    []struct{ Name string }
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		e.Answer = "bad-request"
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for _, msg := range req.Messages {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
			IsError bool            `json:"is_error"`
		}
		if json.Unmarshal(msg.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				t := textOf(b.Content)
				if b.IsError {
					t = "[is_error] " + t
				}
				e.ToolResults = append(e.ToolResults, t)
			}
		}
	}
	call, n, useTool := m.next(func(name string) bool {
		for _, t := range req.Tools {
			if t.Name == name {
				return true
			}
		}
		return false
	}, len(e.ToolResults))
	id := fmt.Sprintf("toolu_e2e_%d", n)
	var block map[string]any
	stop := "end_turn"
	if useTool {
		e.Answer = "tool-call"
		stop = "tool_use"
		block = map[string]any{"type": "tool_use", "id": id, "name": call.Name, "input": call.Args}
	} else {
		e.Answer = "text"
		block = map[string]any{"type": "text", "text": finalText}
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	msg := map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": req.Model,
		"stop_reason": nil, "stop_sequence": nil, "usage": usage, "content": []any{}}
	if !req.Stream {
		msg["content"] = []any{block}
		msg["stop_reason"] = stop
		writeJSON(w, msg)
		return
	}
	s := newSSE(w)
	s.event("message_start", map[string]any{"type": "message_start", "message": msg})
	if useTool {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": id, "name": call.Name, "input": map[string]any{}}})
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": argsJSON(call.Args)}})
	} else {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": finalText}})
	}
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

// --- Gemini API (https://ai.google.dev/api/generate-content)

func (m *modelServer) gemini(w http.ResponseWriter, body []byte, stream bool, e *exchange) {
	var req struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					Name     string          `json:"name"`
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			ResponseMimeType   string          `json:"responseMimeType"`
			ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
			ResponseSchema     json.RawMessage `json:"responseSchema"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		e.Answer = "bad-request"
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				e.ToolResults = append(e.ToolResults, geminiResult(p.FunctionResponse.Response))
			}
		}
	}
	call, _, useTool := m.next(func(name string) bool {
		for _, t := range req.Tools {
			for _, f := range t.FunctionDeclarations {
				if f.Name == name {
					return true
				}
			}
		}
		return false
	}, len(e.ToolResults))
	var part map[string]any
	switch {
	case req.GenerationConfig.ResponseMimeType == "application/json":
		e.Answer = "json"
		schema := req.GenerationConfig.ResponseJSONSchema
		if len(schema) == 0 {
			schema = req.GenerationConfig.ResponseSchema
		}
		b, _ := json.Marshal(fillSchema(schema, ""))
		part = map[string]any{"text": string(b)}
	case useTool:
		e.Answer = "tool-call"
		part = map[string]any{"functionCall": map[string]any{"name": call.Name, "args": call.Args}}
	default:
		e.Answer = "text"
		part = map[string]any{"text": finalText}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  "gemini-e2e",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	newSSE(w).event("", resp)
}

// geminiResult renders a functionResponse's response ({"output": ...} when
// the command ran, {"error": ...} when it was blocked) as "key: value" lines.
func geminiResult(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return string(raw)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var lines []string
	for _, k := range keys {
		v, ok := m[k].(string)
		if !ok {
			b, _ := json.Marshal(m[k])
			v = string(b)
		}
		lines = append(lines, k+": "+v)
	}
	return strings.Join(lines, "\n")
}

// fillSchema returns a value that fits a JSON schema well enough for the
// CLIs' own JSON calls: Gemini CLI's router wants {complexity_reasoning,
// complexity_score} (a low score keeps the small model), its next-speaker
// check {reasoning, next_speaker} ("user" ends the turn).
func fillSchema(raw json.RawMessage, name string) any {
	var s struct {
		Type       any                        `json:"type"`
		Enum       []any                      `json:"enum"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	json.Unmarshal(raw, &s)
	switch name {
	case "next_speaker":
		return "user"
	case "complexity_score":
		return 10
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	typ := strings.ToLower(fmt.Sprint(s.Type))
	switch {
	case typ == "object" || len(s.Properties) > 0:
		out := map[string]any{}
		for k, v := range s.Properties {
			out[k] = fillSchema(v, k)
		}
		return out
	case typ == "array":
		return []any{}
	case typ == "integer" || typ == "number":
		return 1
	case typ == "boolean":
		return false
	}
	return "e2e"
}

// --- OpenAI Responses API, as Codex reads it (openai/codex codex-rs/core/tests/common/responses.rs)

func (m *modelServer) responses(w http.ResponseWriter, body []byte, e *exchange) {
	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
		Tools []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		e.Answer = "bad-request"
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for _, it := range req.Input {
		if it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
			e.ToolResults = append(e.ToolResults, textOf(it.Output))
		}
	}
	offered := false
	for _, t := range req.Tools {
		offered = offered || t.Name == m.call.Name
	}
	s := newSSE(w)
	s.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_e2e"}})
	var item map[string]any
	if offered && len(e.ToolResults) == 0 {
		e.Answer = "tool-call"
		item = map[string]any{"type": "function_call", "id": "fc_e2e_1", "call_id": "call_e2e_1",
			"name": m.call.Name, "arguments": argsJSON(m.call.Args)}
	} else {
		e.Answer = "text"
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_e2e",
			"content": []any{map[string]any{"type": "output_text", "text": finalText}}}
	}
	s.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "item": item})
	s.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": "resp_e2e",
		"usage": map[string]any{"input_tokens": 100, "input_tokens_details": nil, "output_tokens": 10,
			"output_tokens_details": nil, "total_tokens": 110},
	}})
}

// --- OpenAI Chat Completions (streaming chunks)

func (m *modelServer) chat(w http.ResponseWriter, body []byte, e *exchange) {
	var req struct {
		Stream   bool `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		e.Answer = "bad-request"
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for _, msg := range req.Messages {
		if msg.Role == "tool" {
			e.ToolResults = append(e.ToolResults, textOf(msg.Content))
		}
	}
	offered := false
	for _, t := range req.Tools {
		offered = offered || t.Function.Name == m.call.Name
	}
	delta := map[string]any{"role": "assistant", "content": finalText}
	finish := "stop"
	if offered && len(e.ToolResults) == 0 {
		e.Answer = "tool-call"
		finish = "tool_calls"
		delta = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_e2e_1", "type": "function",
			"function": map[string]any{"name": m.call.Name, "arguments": argsJSON(m.call.Args)},
		}}}
	} else {
		e.Answer = "text"
	}
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": delta["content"]}
		if tc, ok := delta["tool_calls"]; ok {
			msg["tool_calls"] = tc
		}
		writeJSON(w, map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion", "created": 1, "model": "e2e",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	s := newSSE(w)
	chunk := func(d map[string]any, fin any, u any) map[string]any {
		c := map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "created": 1, "model": "e2e",
			"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": fin}}}
		if u != nil {
			c["usage"] = u
		}
		return c
	}
	s.event("", chunk(delta, nil, nil))
	s.event("", chunk(map[string]any{}, finish, usage))
	s.raw("data: [DONE]")
}

// clip shortens s for messages.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
