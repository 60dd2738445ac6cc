package agents

// Hermetic tests of the harness itself: they run in plain `go test ./...`.

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestForeignConnects(t *testing.T) {
	log := strings.Join([]string{
		`123 connect(17, {sa_family=AF_INET, sin_port=htons(4000), sin_addr=inet_addr("127.0.0.1")}, 16) = 0`,
		`123 connect(18, {sa_family=AF_UNIX, sun_path="/run/x.sock"}, 110) = 0`,
		`124 connect(19, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("140.82.112.3")}, 16) = -1 ENETUNREACH`,
		`124 connect(20, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}, 16) = 0`,
		`125 connect(21, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2606:4700::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH`,
		`125 connect(22, {sa_family=AF_INET6, sin6_port=htons(4000), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0`,
		`126 connect(23, {sa_family=AF_INET, sin_port=htons(4001), sin_addr=inet_addr("127.0.0.1")}, 16) = 0`,
	}, "\n")
	path := filepath.Join(t.TempDir(), "strace.log")
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	got := foreignConnects(t, path, 4000)
	want := []string{"140.82.112.3", "127.0.0.53", "2606:4700::1", `htons(4001)`}
	if len(got) != len(want) {
		t.Fatalf("got %d foreign connects, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("connect %d: %q does not mention %s", i, got[i], w)
		}
	}
}

func TestProxyTrapRecords(t *testing.T) {
	p := newProxyTrap(t)
	req, _ := http.NewRequest("GET", "http://example.invalid/x", nil)
	proxy, _ := url.Parse(p.URL())
	tr := &http.Transport{Proxy: http.ProxyURL(proxy)}
	resp, err := tr.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	if hits := p.Hits(); len(hits) != 1 || !strings.Contains(hits[0], "example.invalid") {
		t.Fatalf("trap hits %q", hits)
	}
}

// post sends body to the model server and returns the response text.
func post(t *testing.T, m *modelServer, path, body string) string {
	t.Helper()
	resp, err := http.Post(m.URL()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestModelServerScript(t *testing.T) {
	m := newModelServer(t, toolCall{Name: "Bash", Args: map[string]any{"command": "echo hi"}})
	// Anthropic: first the tool call, then (with its result) text.
	out := post(t, m, "/v1/messages", `{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"}]}`)
	if !strings.Contains(out, `"type":"tool_use"`) || !strings.Contains(out, `{\"command\":\"echo hi\"}`) {
		t.Errorf("first call: want a streamed tool_use, got %s", out)
	}
	out = post(t, m, "/v1/messages", `{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"denied: because","is_error":true}]}]}`)
	if !strings.Contains(out, finalText) {
		t.Errorf("second call: want the final text, got %s", out)
	}
	if res, ok := m.ToolResult(); !ok || res != "[is_error] denied: because" {
		t.Errorf("tool result %q %v", res, ok)
	}
	// A request that does not offer the tool gets text.
	if out := post(t, m, "/v1/messages", `{"messages":[{"role":"user","content":"title?"}]}`); !strings.Contains(out, finalText) {
		t.Errorf("side call: %s", out)
	}

	g := newModelServer(t, toolCall{Name: "run_shell_command", Args: map[string]any{"command": "echo hi"}})
	out = post(t, g, "/v1beta/models/m:generateContent", `{"contents":[],"generationConfig":{"responseMimeType":"application/json",
		"responseJsonSchema":{"type":"object","properties":{"complexity_reasoning":{"type":"string"},"complexity_score":{"type":"integer"}}}}}`)
	if !strings.Contains(out, `complexity_score\":10`) {
		t.Errorf("router call: %s", out)
	}
	out = post(t, g, "/v1beta/models/m:streamGenerateContent?alt=sse", `{"contents":[{"parts":[{"text":"go"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`)
	if !strings.HasPrefix(out, "data: ") || !strings.Contains(out, `"functionCall"`) {
		t.Errorf("gemini tool call: %s", out)
	}

	r := newModelServer(t, toolCall{Name: "exec_command", Args: map[string]any{"cmd": "echo hi"}})
	out = post(t, r, "/v1/responses", `{"input":[],"tools":[{"type":"function","name":"exec_command"}]}`)
	if !strings.Contains(out, "event: response.completed") || !strings.Contains(out, `"type":"function_call"`) {
		t.Errorf("responses: %s", out)
	}
	post(t, r, "/v1/responses", `{"input":[{"type":"function_call_output","call_id":"c","output":"blocked: why"}],"tools":[{"type":"function","name":"exec_command"}]}`)
	if res, _ := r.ToolResult(); res != "blocked: why" {
		t.Errorf("responses tool result %q", res)
	}

	c := newModelServer(t, toolCall{Name: "bash", Args: map[string]any{"command": "echo hi"}})
	out = post(t, c, "/v1/chat/completions", `{"stream":true,"messages":[],"tools":[{"type":"function","function":{"name":"bash"}}]}`)
	if !strings.Contains(out, `"tool_calls"`) || !strings.HasSuffix(strings.TrimSpace(out), "data: [DONE]") {
		t.Errorf("chat: %s", out)
	}
}
